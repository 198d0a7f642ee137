//! What the emulator asks of the program that hosts it: clocks, timers, background tasks,
//! webhook delivery and static files. The core (every other module of this crate) reaches the
//! outside world only through this trait; the native server (`crate::native`) and the in-process
//! WebAssembly host (the `estatekit-testing` crate) implement it.

use axum::response::Response;
use std::future::Future;
use std::pin::Pin;

/// A boxed future the router can hold across `.await` (axum handlers are `Send`).
pub type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

/// What became of one webhook delivery attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sent {
    /// The receiver answered with this status.
    Status(u16),
    /// The attempt failed before a status arrived (the text says why); it is retried.
    Failed(String),
    /// The host refuses this target (e.g. not a loopback address); no retry.
    Refused(String),
    /// This host records deliveries but sends none (no sender configured).
    NotSent,
}

/// The services a host gives the emulator's core.
pub trait Host: Send + Sync + 'static {
    /// Wall-clock time in milliseconds since the Unix epoch (timestamps of records).
    fn unix_ms(&self) -> i64;
    /// A monotonic clock in milliseconds from an arbitrary start (rate-limit windows, log times).
    fn monotonic_ms(&self) -> u64;
    /// Completes after `ms` milliseconds (fault delays, delivery back-off).
    fn sleep(&self, ms: u64) -> BoxFuture<()>;
    /// Runs `task` in the background (webhook deliveries).
    fn spawn(&self, task: BoxFuture<()>);
    /// Sends one delivery attempt: `POST url` with the JSON `body`.
    fn post_json(&self, url: String, body: String) -> BoxFuture<Sent>;
    /// The static file for a `GET` outside `/api/` and `/_emulator/`, if this host serves one.
    fn static_file(&self, path: String) -> BoxFuture<Option<Response>>;
    /// Writes one line of the request log (only called when the log is on).
    fn log(&self, line: &str);
    /// Fills `buf` with cryptographically secure random bytes (issued tokens and codes); the
    /// error says why the system's generator failed.
    fn random(&self, buf: &mut [u8]) -> Result<(), String>;
}
