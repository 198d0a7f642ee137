//! `estatekit-emulator`: an in-memory emulator of the property-management service
//! (messages GraphQL, documents, webhooks) with fault injection for client tests.
//!
//! Written once, hosted twice. The core (every module but `native`) is an axum `Router` over an
//! [`AppState`]; it reaches the outside world (clocks, timers, background tasks, webhook
//! delivery, static files) only through the [`host::Host`] trait. Two hosts sit on top: the
//! native server in [`native`] (feature `native`, on by default: tokio, sockets, reqwest) and the
//! in-process WebAssembly host of `estatekit/testing` (the `estatekit-testing` crate).
#![warn(missing_docs)]

pub mod admin;
pub mod admin_seed;
pub mod config;
pub mod credentials;
pub mod delivery;
pub mod documents;
pub mod errors;
pub mod faults;
pub mod graphql;
pub mod host;
pub mod model;
pub mod oauth;
pub mod pipeline;
pub mod ratelimit;
pub mod routes;
pub mod seed_data;
pub mod state;
pub mod tokens;
pub mod util;
pub mod webhooks;

#[cfg(feature = "native")]
pub mod native;

pub use config::Config;
pub use state::AppState;

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;
use std::sync::Arc;

/// Builds the router and its state, served by `host`.
pub fn app(config: Config, host: Arc<dyn host::Host>) -> (Router, AppState) {
    let state = AppState::new(config, host);
    (router(state.clone()), state)
}

/// Builds the router for an existing state.
pub fn router(state: AppState) -> Router {
    let limit = state.config.max_body_bytes();
    // The service's REST and GraphQL routes and the token endpoint: the operation table's
    // (routes.rs).
    routes::service(Router::new())
        .route(
            "/accounts/dialog/authorize",
            get(oauth::authorize).post(oauth::authorize_post),
        )
        .route("/accounts/api/userinfo", get(oauth::userinfo))
        .route("/_emulator/oauth", get(oauth::admin_counts))
        .route("/_emulator/oauth/revoke", post(oauth::admin_revoke))
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
        .route("/_emulator/emit", post(admin::emit))
        .route("/_emulator/settled", get(admin::settled))
        .route("/_emulator/deliveries", get(admin::deliveries))
        .route("/_emulator/seed", post(admin_seed::seed))
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
