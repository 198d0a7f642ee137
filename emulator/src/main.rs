//! `estatekit-emulator` binary.

use estatekit_emulator::native::start;
use estatekit_emulator::Config;
use std::io::Write;

/// Waits for Ctrl-C or SIGTERM. The handlers are registered when this is called (not when
/// first polled), so call it before announcing readiness.
#[cfg(unix)]
fn shutdown_signal() -> impl std::future::Future<Output = ()> {
    use tokio::signal::unix::{signal, SignalKind};
    let term = signal(SignalKind::terminate()).ok();
    let int = signal(SignalKind::interrupt()).ok();
    async move {
        let wait = |s: Option<tokio::signal::unix::Signal>| async move {
            match s {
                Some(mut s) => {
                    s.recv().await;
                }
                None => std::future::pending::<()>().await,
            }
        };
        tokio::select! {
            _ = wait(term) => {},
            _ = wait(int) => {},
        }
    }
}

/// Waits for Ctrl-C.
#[cfg(not(unix))]
fn shutdown_signal() -> impl std::future::Future<Output = ()> {
    async {
        let _ = tokio::signal::ctrl_c().await;
    }
}

#[tokio::main]
async fn main() {
    let config = match Config::from_args(std::env::args().skip(1)) {
        Ok(Some(c)) => c,
        Ok(None) => {
            println!("{}", estatekit_emulator::config::USAGE);
            return;
        }
        Err(e) => {
            eprintln!("estatekit-emulator: {e}");
            std::process::exit(2);
        }
    };
    let hint = (!config.quiet).then(|| config.start_hint());
    let shutdown = shutdown_signal();
    let running = match start(config).await {
        Ok(r) => r,
        Err(e) => {
            eprintln!("estatekit-emulator: cannot listen: {e}");
            std::process::exit(1);
        }
    };
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{}", running.startup_line());
    let _ = out.flush();
    drop(out);
    if let Some(hint) = hint {
        eprintln!("{hint}");
    }
    shutdown.await;
    running.abort();
    eprintln!("estatekit-emulator: shutting down");
}
