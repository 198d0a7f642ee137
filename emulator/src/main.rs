//! `estatekit-emulator` binary.

use estatekit_emulator::{start, Config};
use std::io::Write;

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
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
    shutdown_signal().await;
    running.abort();
    eprintln!("estatekit-emulator: shutting down");
}
