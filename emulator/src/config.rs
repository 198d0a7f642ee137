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
    /// Seed of the webhook events' uuids: `Some` when a seed was asked for (`--seed`,
    /// `createTestService({ seed })`), for reproducible tests; `None` draws one at random per
    /// process, so that a persistent dedupe store never takes a new run's event for an old one.
    pub event_seed: Option<u64>,
    /// Extra messages for `cand-bulk`.
    pub seed_messages: usize,
    /// Documents per account: [`DEFAULT_SEED_DOCUMENTS`] when the command line gives no
    /// `--seed-documents` (a newcomer lists something at once), none in `Config::default()`
    /// (`createTestService`, tests).
    pub seed_documents: usize,
    /// Requests per rate-limit window (a minute by default) per account (0 = off).
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
    /// Length of a rate-limit window, in ms (default 60000).
    pub rate_limit_window_ms: u64,
    /// OAuth clients of `POST /accounts/oauth/token` (default `dev-client` / `dev-secret`).
    pub oauth_clients: Vec<OAuthClient>,
    /// Users of the password grant (default `admin@acme.test` / `dev-password`, reaching the
    /// first token's account).
    pub users: Vec<User>,
    /// Lifetime of an issued access token, in ms (default 3600000).
    pub access_token_ttl_ms: u64,
    /// Whether a refresh grant answers a new refresh token and deletes the used one.
    pub rotate_refresh_tokens: bool,
    /// Whether `GET /accounts/dialog/authorize` shows a sign-in form (e-mail and password of a
    /// user) instead of approving at once as the first user.
    pub sign_in_page: bool,
    /// How long an authorization code can be exchanged, in ms (default 60000).
    pub code_ttl_ms: u64,
}

/// One OAuth client (`--oauth-client ID:SECRET`, its `--oauth-redirect-uri ID=URI`s).
#[derive(Clone, PartialEq, Eq, Default)]
pub struct OAuthClient {
    /// `client_id`.
    pub id: String,
    /// `client_secret`.
    pub secret: String,
    /// Its registered redirect URIs, matched exactly (RFC 6749 3.1.2.3). None registered: any
    /// loopback `http` URI, any port (RFC 8252 7.3, and `localhost`).
    pub redirect_uris: Vec<String>,
}

impl std::fmt::Debug for OAuthClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OAuthClient")
            .field("id", &self.id)
            .field("secret", &"[redacted]")
            .field("redirect_uris", &self.redirect_uris)
            .finish()
    }
}

/// One user of the password grant (`--user EMAIL:PASSWORD[:ACCOUNT_TOKEN]`).
#[derive(Clone, PartialEq, Eq)]
pub struct User {
    /// The user name (an e-mail address).
    pub username: String,
    /// The password.
    pub password: String,
    /// The token of the account the user's access tokens reach (`None`: the first token).
    pub token: Option<String>,
}

impl std::fmt::Debug for User {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("User")
            .field("username", &self.username)
            .field("password", &"[redacted]")
            .field("token", &self.token)
            .finish()
    }
}

/// The default OAuth client id.
pub const DEFAULT_CLIENT_ID: &str = "dev-client";
/// The default OAuth client secret.
pub const DEFAULT_CLIENT_SECRET: &str = "dev-secret";
/// The default user.
pub const DEFAULT_USERNAME: &str = "admin@acme.test";
/// The default user's password.
pub const DEFAULT_PASSWORD: &str = "dev-password";
/// The default access-token lifetime (one hour), in ms.
pub const DEFAULT_ACCESS_TOKEN_TTL_MS: u64 = 3_600_000;
/// How long an authorization code can be exchanged, in ms, by default (`--code-ttl-ms`,
/// `createTestService({ codeTtlMs })`).
pub const DEFAULT_CODE_TTL_MS: u64 = 60_000;
/// The default rate-limit window (one minute), in ms.
pub const DEFAULT_RATE_LIMIT_WINDOW_MS: u64 = 60_000;

/// The default OAuth clients: `dev-client` / `dev-secret`.
pub fn default_oauth_clients() -> Vec<OAuthClient> {
    vec![OAuthClient {
        id: DEFAULT_CLIENT_ID.into(),
        secret: DEFAULT_CLIENT_SECRET.into(),
        redirect_uris: Vec::new(),
    }]
}

/// The default users: `admin@acme.test` / `dev-password`, on the first token's account.
pub fn default_users() -> Vec<User> {
    vec![User {
        username: DEFAULT_USERNAME.into(),
        password: DEFAULT_PASSWORD.into(),
        token: None,
    }]
}

/// Parses `--oauth-client ID:SECRET`.
pub fn parse_oauth_client(v: &str) -> Result<OAuthClient, String> {
    let (id, secret) = v
        .split_once(':')
        .ok_or("--oauth-client: expected ID:SECRET")?;
    let client = OAuthClient {
        id: id.to_string(),
        secret: secret.to_string(),
        redirect_uris: Vec::new(),
    };
    check_oauth_client(&client).map_err(|e| format!("--oauth-client: {e}"))?;
    Ok(client)
}

/// Parses `--oauth-redirect-uri CLIENT_ID=URI` into (client id, URI): split at the first `=`
/// (a client id with `=` cannot be named here; a URI may hold `=` and `:`).
pub fn parse_redirect_uri(v: &str) -> Result<(String, String), String> {
    let (id, uri) = v
        .split_once('=')
        .filter(|(id, uri)| !id.is_empty() && !uri.is_empty())
        .ok_or("--oauth-redirect-uri: expected CLIENT_ID=URI")?;
    check_redirect_uri(uri).map_err(|e| format!("--oauth-redirect-uri: {e}"))?;
    Ok((id.to_string(), uri.to_string()))
}

/// Checks a redirect URI to register: an absolute `http` or `https` URL without a fragment
/// (RFC 6749 3.1.2), at most 2048 characters.
pub fn check_redirect_uri(uri: &str) -> Result<(), String> {
    let ok = uri.len() <= 2048
        && !uri.chars().any(|c| c.is_control() || c.is_whitespace())
        && url::Url::parse(uri).is_ok_and(|u| {
            matches!(u.scheme(), "http" | "https") && u.has_host() && u.fragment().is_none()
        });
    if ok {
        Ok(())
    } else {
        Err("a redirect URI must be an absolute http or https URL without a fragment (RFC 6749 3.1.2), at most 2048 characters".into())
    }
}

/// Registers `uri` for the client `id` (given twice: once); an unknown client is an error.
pub fn add_redirect_uri(clients: &mut [OAuthClient], id: &str, uri: &str) -> Result<(), String> {
    let client = clients
        .iter_mut()
        .find(|c| c.id == id)
        .ok_or_else(|| format!("no OAuth client `{id}` to register a redirect URI for"))?;
    if !client.redirect_uris.iter().any(|u| u == uri) {
        client.redirect_uris.push(uri.to_string());
    }
    Ok(())
}

/// Parses `--user EMAIL:PASSWORD[:ACCOUNT_TOKEN]` (the password cannot contain `:`).
pub fn parse_user(v: &str) -> Result<User, String> {
    let mut parts = v.splitn(3, ':');
    let username = parts.next().unwrap_or_default().to_string();
    let password = parts
        .next()
        .ok_or("--user: expected EMAIL:PASSWORD[:ACCOUNT_TOKEN]")?
        .to_string();
    let token = parts.next().map(str::to_string);
    let user = User {
        username,
        password,
        token,
    };
    check_user(&user).map_err(|e| format!("--user: {e}"))?;
    Ok(user)
}

fn printable(s: &str) -> bool {
    !s.is_empty() && s.len() <= 512 && !s.chars().any(|c| c.is_control())
}

/// Checks an OAuth client (the message never holds the secret).
pub fn check_oauth_client(c: &OAuthClient) -> Result<(), String> {
    if !printable(&c.id) || c.id.chars().any(char::is_whitespace) {
        return Err("the client id must be 1 to 512 characters without whitespace".into());
    }
    if !printable(&c.secret) {
        return Err(
            "the client secret must be 1 to 512 characters without control characters".into(),
        );
    }
    Ok(())
}

/// Checks a user (the message never holds the password).
pub fn check_user(u: &User) -> Result<(), String> {
    if !printable(&u.username) || u.username.chars().any(char::is_whitespace) {
        return Err("the user name must be 1 to 512 characters without whitespace".into());
    }
    if !printable(&u.password) {
        return Err("the password must be 1 to 512 characters without control characters".into());
    }
    if let Some(t) = &u.token {
        if !is_valid_token(t) {
            return Err("the account token must be 1 to 512 characters without whitespace, commas or control characters".into());
        }
    }
    Ok(())
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

/// The documents of each account when the command line gives no `--seed-documents`: three PDFs
/// on the property `prop-bulk` (`bulk-1.pdf` ...).
pub const DEFAULT_SEED_DOCUMENTS: usize = 3;

/// The token used when no `--token` is given.
pub const DEFAULT_TOKEN: &str = "dev-token";

impl Default for Config {
    fn default() -> Self {
        Config {
            host: "127.0.0.1".into(),
            port: 8787,
            tokens: vec![DEFAULT_TOKEN.into()],
            seed: 42,
            event_seed: None,
            seed_messages: 0,
            seed_documents: 0,
            rate_limit: 300,
            max_upload_mb: 100,
            statics: Vec::new(),
            second_origin: false,
            delivery_backoff_ms: 500,
            quiet: false,
            rate_limit_window_ms: DEFAULT_RATE_LIMIT_WINDOW_MS,
            oauth_clients: default_oauth_clients(),
            users: default_users(),
            access_token_ttl_ms: DEFAULT_ACCESS_TOKEN_TTL_MS,
            rotate_refresh_tokens: false,
            sign_in_page: false,
            code_ttl_ms: DEFAULT_CODE_TTL_MS,
        }
    }
}

/// Usage text printed by `--help`.
pub const USAGE: &str =
    "usage: estatekit-emulator [--host 127.0.0.1] [--port 8787] [--token T]... [--seed N]
  [--seed-messages N] [--seed-documents N] [--rate-limit 300] [--max-upload-mb 100]
  [--static [PREFIX=]DIR]... [--second-origin] [--delivery-backoff-ms 500] [--quiet]
  [--rate-limit-window-ms 60000] [--oauth-client ID:SECRET]...
  [--oauth-redirect-uri CLIENT_ID=URI]...
  [--user EMAIL:PASSWORD[:ACCOUNT_TOKEN]]... [--access-token-ttl 3600] [--rotate-refresh-tokens]
  [--sign-in-page] [--code-ttl-ms 60000]

Defaults: token dev-token (readonly-token is accepted too, refused on webhook routes); OAuth
client dev-client:dev-secret; user admin@acme.test:dev-password (the password grant; its tokens
reach dev-token's account). Seeded: the messages of candidates cand-1 to cand-5, and 3 documents
on propertyId prop-bulk (--seed-documents 0: none). Event uuids are random unless --seed is given.
Admin routes, without a token: POST /_emulator/emit {\"type\":\"UNIT_CREATED\"} (a webhook
delivery), GET /_emulator/settled, POST|GET|DELETE /_emulator/faults, POST /_emulator/reset,
POST /_emulator/accounts, POST /_emulator/seed, GET /_emulator/requests, GET /_emulator/info.
All of it is in EMULATOR.md, in the estatekit package.";

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
            oauth_clients: Vec::new(),
            users: Vec::new(),
            seed_documents: DEFAULT_SEED_DOCUMENTS,
            ..Config::default()
        };
        let mut redirect_uris: Vec<(String, String)> = Vec::new();
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
                "--seed" => {
                    c.seed = num(&flag, value())?;
                    c.event_seed = Some(c.seed);
                }
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
                "--rate-limit-window-ms" => {
                    c.rate_limit_window_ms = num(&flag, value())?;
                    if c.rate_limit_window_ms == 0 {
                        return Err("--rate-limit-window-ms must be at least 1".into());
                    }
                }
                "--oauth-client" => {
                    let client =
                        parse_oauth_client(&value().ok_or("--oauth-client needs a value")?)?;
                    if c.oauth_clients.iter().any(|o| o.id == client.id) {
                        return Err(format!(
                            "--oauth-client: client `{}` given twice",
                            client.id
                        ));
                    }
                    c.oauth_clients.push(client);
                }
                "--oauth-redirect-uri" => redirect_uris.push(parse_redirect_uri(
                    &value().ok_or("--oauth-redirect-uri needs a value")?,
                )?),
                "--user" => {
                    let user = parse_user(&value().ok_or("--user needs a value")?)?;
                    if c.users
                        .iter()
                        .any(|u| u.username.eq_ignore_ascii_case(&user.username))
                    {
                        return Err(format!("--user: user `{}` given twice", user.username));
                    }
                    c.users.push(user);
                }
                "--access-token-ttl" => {
                    let secs: u64 = num(&flag, value())?;
                    if secs == 0 {
                        return Err("--access-token-ttl must be at least 1 (seconds)".into());
                    }
                    c.access_token_ttl_ms = secs.saturating_mul(1000);
                }
                "--rotate-refresh-tokens" => c.rotate_refresh_tokens = true,
                "--sign-in-page" => c.sign_in_page = true,
                "--code-ttl-ms" => {
                    c.code_ttl_ms = num(&flag, value())?;
                    if c.code_ttl_ms == 0 {
                        return Err("--code-ttl-ms must be at least 1".into());
                    }
                }
                other => return Err(format!("unknown argument `{other}`\n{USAGE}")),
            }
        }
        if c.tokens.is_empty() {
            c.tokens.push(DEFAULT_TOKEN.into());
        }
        if c.oauth_clients.is_empty() {
            c.oauth_clients = default_oauth_clients();
        }
        for (id, uri) in &redirect_uris {
            add_redirect_uri(&mut c.oauth_clients, id, uri)
                .map_err(|e| format!("--oauth-redirect-uri: {e}"))?;
        }
        if c.users.is_empty() {
            c.users = default_users();
        }
        c.add_user_accounts();
        Ok(Some(c))
    }

    /// Adds the account token a user names to `tokens`, when no `--token` gave it (so that the
    /// startup line and `/_emulator/info` list it).
    pub fn add_user_accounts(&mut self) {
        for u in &self.users {
            if let Some(t) = &u.token {
                if t != READONLY_TOKEN && !self.tokens.contains(t) {
                    self.tokens.push(t.clone());
                }
            }
        }
    }

    /// The token of the account a user's access tokens reach: its own, or the first token.
    pub fn account_of(&self, user: &User) -> String {
        user.token
            .clone()
            .or_else(|| self.tokens.first().cloned())
            .unwrap_or_else(|| DEFAULT_TOKEN.to_string())
    }

    /// The line printed on stderr after the start-up line (unless `--quiet`): the default client
    /// and user in use (never a secret or password: the log holds none; `--help` says the
    /// defaults), the seeded data and where to read more. A client or user given on the command
    /// line is not named.
    pub fn start_hint(&self) -> String {
        let mut parts = Vec::new();
        if self
            .oauth_clients
            .iter()
            .any(|c| c.id == DEFAULT_CLIENT_ID && c.secret == DEFAULT_CLIENT_SECRET)
        {
            parts.push(format!("OAuth client {DEFAULT_CLIENT_ID}"));
        }
        if self
            .users
            .iter()
            .any(|u| u.username == DEFAULT_USERNAME && u.password == DEFAULT_PASSWORD)
        {
            parts.push(format!("user {DEFAULT_USERNAME}"));
        }
        let mut seeded = String::from("messages of cand-1 to cand-5");
        if self.seed_messages > 0 {
            seeded.push_str(&format!(" and {} of cand-bulk", self.seed_messages));
        }
        if self.seed_documents > 0 {
            seeded.push_str(&format!(
                ", {} documents on propertyId prop-bulk",
                self.seed_documents
            ));
        }
        parts.push(seeded);
        format!(
            "estatekit-emulator: {}; admin routes under /_emulator/ (emit, settled, faults, reset, accounts, seed, requests); the default secret and password, and the rest: --help, or EMULATOR.md in the estatekit package",
            parts.join("; ")
        )
    }

    /// Body size limit in bytes.
    pub fn max_body_bytes(&self) -> usize {
        usize::try_from(self.max_upload_mb.saturating_mul(1024 * 1024)).unwrap_or(usize::MAX)
    }
}
