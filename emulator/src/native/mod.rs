//! The native host: the emulator as a loopback HTTP server (tokio, hyper through axum::serve),
//! webhook delivery with reqwest (loopback targets only) and `--static` directories.

pub mod static_files;

use crate::config::{self, Config, StaticMount};
use crate::delivery::{is_loopback, LOOPBACK_ONLY};
use crate::host::{BoxFuture, Host, Sent};
use crate::util::lock;
use crate::{app, AppState};
use axum::response::Response;
use axum::Router;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

/// The native [`Host`]: tokio's timers and tasks, the system clock, reqwest for deliveries.
pub struct NativeHost {
    started: Instant,
    http: reqwest::Client,
    statics: Vec<StaticMount>,
}

impl NativeHost {
    /// A host serving the given `--static` mounts.
    pub fn new(statics: Vec<StaticMount>) -> NativeHost {
        let http = reqwest::Client::builder()
            .no_proxy()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(Duration::from_secs(10))
            .build()
            .unwrap_or_else(|_| reqwest::Client::new());
        NativeHost {
            started: Instant::now(),
            http,
            statics,
        }
    }
}

impl Host for NativeHost {
    fn unix_ms(&self) -> i64 {
        chrono::Utc::now().timestamp_millis()
    }

    fn monotonic_ms(&self) -> u64 {
        u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    fn sleep(&self, ms: u64) -> BoxFuture<()> {
        Box::pin(tokio::time::sleep(Duration::from_millis(ms)))
    }

    fn spawn(&self, task: BoxFuture<()>) {
        tokio::spawn(task);
    }

    fn post_json(&self, url: String, body: String) -> BoxFuture<Sent> {
        if !is_loopback(&url) {
            return Box::pin(std::future::ready(Sent::Refused(LOOPBACK_ONLY.into())));
        }
        let request = self
            .http
            .post(url)
            .header("user-agent", "estatekit-emulator")
            .header("content-type", "application/json")
            .body(body);
        Box::pin(async move {
            match request.send().await {
                Ok(r) => Sent::Status(r.status().as_u16()),
                Err(e) => Sent::Failed(e.to_string()),
            }
        })
    }

    fn static_file(&self, path: String) -> BoxFuture<Option<Response>> {
        let mounts = self.statics.clone();
        Box::pin(async move { static_files::serve(&mounts, &path).await })
    }

    fn log(&self, line: &str) {
        eprintln!("{line}");
    }

    fn random(&self, buf: &mut [u8]) -> Result<(), String> {
        getrandom::fill(buf).map_err(|e| format!("the system's random generator failed: {e}"))
    }
}

/// A running emulator (listeners spawned on the current tokio runtime).
pub struct Running {
    /// Base URL of the main listener, e.g. `http://127.0.0.1:8787`.
    pub base_url: String,
    /// Base URL of the second origin, if enabled.
    pub second_origin: Option<String>,
    /// Shared state (for inspection in tests).
    pub state: AppState,
    /// Server tasks.
    pub tasks: Vec<JoinHandle<()>>,
}

impl Running {
    /// The startup line printed by the binary: `estatekit-emulator listening on URL tokens=...`,
    /// then ` second-origin=URL` with `--second-origin`, then ` subdomain=emu-...` (the default
    /// account's webhook subdomain).
    pub fn startup_line(&self) -> String {
        let mut tokens = self.state.config.tokens.clone();
        tokens.push(config::READONLY_TOKEN.to_string());
        let mut line = format!(
            "estatekit-emulator listening on {} tokens={}",
            self.base_url,
            tokens.join(",")
        );
        if let Some(s) = &self.second_origin {
            line.push_str(&format!(" second-origin={s}"));
        }
        line.push_str(&format!(" subdomain={}", self.state.default_subdomain()));
        line
    }

    /// Stops the server tasks.
    pub fn abort(&self) {
        for t in &self.tasks {
            t.abort();
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.abort();
    }
}

fn spawn_server(listener: TcpListener, router: Router) -> JoinHandle<()> {
    tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, router).await {
            eprintln!("estatekit-emulator: server error: {e}");
        }
    })
}

/// Binds the listener(s) and starts serving.
pub async fn start(config: Config) -> std::io::Result<Running> {
    let addr = format!("{}:{}", config.host, config.port);
    let listener = TcpListener::bind(&addr).await?;
    let base_url = format!("http://{}", listener.local_addr()?);
    let second = if config.second_origin {
        let l = TcpListener::bind(format!("{}:0", config.host)).await?;
        let url = format!("http://{}", l.local_addr()?);
        Some((l, url))
    } else {
        None
    };
    let host = Arc::new(NativeHost::new(config.statics.clone()));
    let (router, state) = app(config, host);
    *lock(&state.base_url) = base_url.clone();
    *lock(&state.second_origin) = second.as_ref().map(|(_, u)| u.clone());
    let mut tasks = vec![spawn_server(listener, router.clone())];
    let mut second_origin = None;
    if let Some((l, url)) = second {
        tasks.push(spawn_server(l, router));
        second_origin = Some(url);
    }
    Ok(Running {
        base_url,
        second_origin,
        state,
        tasks,
    })
}
