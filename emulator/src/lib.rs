//! `estatekit-emulator`: an in-memory emulator of the property-management service
//! (messages GraphQL, documents, webhooks) with fault injection for client tests.
#![warn(missing_docs)]

pub mod admin;
pub mod config;
pub mod delivery;
pub mod documents;
pub mod errors;
pub mod faults;
pub mod graphql;
pub mod model;
pub mod pipeline;
pub mod ratelimit;
pub mod seed;
pub mod state;
pub mod static_files;
pub mod util;
pub mod webhooks;

pub use config::Config;
pub use state::AppState;

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;
use state::lock;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

/// Builds the router and its state.
pub fn app(config: Config) -> (Router, AppState) {
    let state = AppState::new(config);
    (router(state.clone()), state)
}

/// Builds the router for an existing state.
pub fn router(state: AppState) -> Router {
    let limit = state.config.max_body_bytes();
    Router::new()
        .route("/api/reporting/graphql", post(graphql::handler))
        .route(
            "/api/file-storage/company/documents",
            post(documents::upload),
        )
        .route(
            "/api/file-storage/company/documents/metadata",
            get(documents::list),
        )
        .route(
            "/api/file-storage/company/documents/{id}/metadata",
            get(documents::get_metadata),
        )
        .route(
            "/api/file-storage/company/documents/{id}",
            get(documents::get_content).delete(documents::delete),
        )
        .route(
            "/api/external-integrations/webhooks",
            get(webhooks::list).post(webhooks::create),
        )
        .route(
            "/api/external-integrations/webhooks/{id}",
            axum::routing::delete(webhooks::delete),
        )
        .route("/_emulator/info", get(admin::info))
        .route("/_emulator/reset", post(admin::reset))
        .route("/_emulator/accounts", post(admin::accounts))
        .route("/_emulator/config", post(admin::config))
        .route(
            "/_emulator/faults",
            get(admin::list_faults)
                .post(admin::add_faults)
                .delete(admin::clear_faults),
        )
        .route("/_emulator/counters", get(admin::counters))
        .route(
            "/_emulator/requests",
            get(admin::requests).delete(admin::clear_requests),
        )
        .route("/_emulator/events", post(admin::events))
        .route("/_emulator/deliveries", get(admin::deliveries))
        .route(
            "/_emulator/sink",
            get(admin::sink_list).delete(admin::sink_clear),
        )
        .route("/_emulator/sink/{name}", post(admin::sink_post))
        .fallback(pipeline::fallback)
        .method_not_allowed_fallback(pipeline::method_not_allowed)
        .layer(DefaultBodyLimit::max(limit))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            pipeline::pipeline,
        ))
        .with_state(state)
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
    /// The startup line printed by the binary.
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
    let (router, state) = app(config);
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
