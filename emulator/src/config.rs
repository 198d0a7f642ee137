//! Command-line configuration.

use std::path::PathBuf;

/// One `--static [PREFIX=]DIR` mount.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaticMount {
    /// URL prefix, always starting and ending with `/` (e.g. `/` or `/pkg/`).
    pub prefix: String,
    /// Directory served under the prefix.
    pub dir: PathBuf,
}

/// Emulator configuration (see `docs/emulator-contract.md`).
#[derive(Debug, Clone)]
pub struct Config {
    /// Address to listen on.
    pub host: String,
    /// Port (0 = pick a free one).
    pub port: u16,
    /// Accepted tokens besides `readonly-token` (default `dev-token`).
    pub tokens: Vec<String>,
    /// Seed of the deterministic data generator.
    pub seed: u64,
    /// Extra messages for `cand-bulk`.
    pub seed_messages: usize,
    /// Extra documents per account.
    pub seed_documents: usize,
    /// Requests per minute per token (0 = off).
    pub rate_limit: u32,
    /// Maximum request body size in MiB.
    pub max_upload_mb: u64,
    /// Static directories to serve.
    pub statics: Vec<StaticMount>,
    /// Also listen on a second loopback port.
    pub second_origin: bool,
    /// First retry delay of failed webhook deliveries, in ms (doubles).
    pub delivery_backoff_ms: u64,
    /// Suppress per-request logs.
    pub quiet: bool,
}

/// The token that is accepted everywhere but refused on webhook routes.
pub const READONLY_TOKEN: &str = "readonly-token";
/// Whether a token may name an account: 1 to 512 characters, no whitespace, commas or control
/// characters (the rule of `POST /_emulator/accounts` and of `estatekit/testing`'s `tokens`).
pub fn is_valid_token(token: &str) -> bool {
    !token.is_empty()
        && token.len() <= 512
        && !token
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || c == ',')
}

/// The token used when no `--token` is given.
pub const DEFAULT_TOKEN: &str = "dev-token";

impl Default for Config {
    fn default() -> Self {
        Config {
            host: "127.0.0.1".into(),
            port: 8787,
            tokens: vec![DEFAULT_TOKEN.into()],
            seed: 42,
            seed_messages: 0,
            seed_documents: 0,
            rate_limit: 300,
            max_upload_mb: 100,
            statics: Vec::new(),
            second_origin: false,
            delivery_backoff_ms: 500,
            quiet: false,
        }
    }
}

/// Usage text printed by `--help`.
pub const USAGE: &str =
    "usage: estatekit-emulator [--host 127.0.0.1] [--port 8787] [--token T]... [--seed N]
  [--seed-messages N] [--seed-documents N] [--rate-limit 300] [--max-upload-mb 100]
  [--static [PREFIX=]DIR]... [--second-origin] [--delivery-backoff-ms 500] [--quiet]";

fn num<T: std::str::FromStr>(flag: &str, v: Option<String>) -> Result<T, String> {
    let v = v.ok_or_else(|| format!("{flag} needs a value"))?;
    v.parse::<T>()
        .map_err(|_| format!("{flag}: invalid number `{v}`"))
}

/// Parses a `--static` value into a mount.
pub fn parse_static(v: &str) -> Result<StaticMount, String> {
    let (prefix, dir) = match v.split_once('=') {
        Some((p, d)) => (p.to_string(), d.to_string()),
        None => ("/".to_string(), v.to_string()),
    };
    if dir.is_empty() {
        return Err("--static: empty directory".into());
    }
    let trimmed = prefix.trim_matches('/');
    let prefix = if trimmed.is_empty() {
        "/".to_string()
    } else {
        format!("/{trimmed}/")
    };
    Ok(StaticMount {
        prefix,
        dir: PathBuf::from(dir),
    })
}

impl Config {
    /// Parses command-line arguments (without the program name).
    /// `Ok(None)` means `--help` was requested.
    pub fn from_args<I: IntoIterator<Item = String>>(args: I) -> Result<Option<Config>, String> {
        let mut c = Config {
            tokens: Vec::new(),
            ..Config::default()
        };
        let mut it = args.into_iter();
        while let Some(arg) = it.next() {
            let (flag, inline) = match arg.split_once('=') {
                Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
                _ => (arg.clone(), None),
            };
            let mut value = || inline.clone().or_else(|| it.next());
            match flag.as_str() {
                "--help" | "-h" => return Ok(None),
                "--host" => c.host = value().ok_or("--host needs a value")?,
                "--port" => c.port = num(&flag, value())?,
                "--token" => {
                    let t = value().ok_or("--token needs a value")?;
                    if t.is_empty() || t.chars().any(|ch| ch.is_whitespace() || ch == ',') {
                        return Err(format!("--token: invalid token `{t}`"));
                    }
                    if !c.tokens.contains(&t) && t != READONLY_TOKEN {
                        c.tokens.push(t);
                    }
                }
                "--seed" => c.seed = num(&flag, value())?,
                "--seed-messages" => c.seed_messages = num(&flag, value())?,
                "--seed-documents" => c.seed_documents = num(&flag, value())?,
                "--rate-limit" => c.rate_limit = num(&flag, value())?,
                "--max-upload-mb" => c.max_upload_mb = num(&flag, value())?,
                "--static" => c
                    .statics
                    .push(parse_static(&value().ok_or("--static needs a value")?)?),
                "--second-origin" => c.second_origin = true,
                "--delivery-backoff-ms" => c.delivery_backoff_ms = num(&flag, value())?,
                "--quiet" | "-q" => c.quiet = true,
                other => return Err(format!("unknown argument `{other}`\n{USAGE}")),
            }
        }
        if c.tokens.is_empty() {
            c.tokens.push(DEFAULT_TOKEN.into());
        }
        Ok(Some(c))
    }

    /// Body size limit in bytes.
    pub fn max_body_bytes(&self) -> usize {
        usize::try_from(self.max_upload_mb.saturating_mul(1024 * 1024)).unwrap_or(usize::MAX)
    }
}
