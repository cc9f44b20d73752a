//! One shutdown signal for the whole process: SIGINT or SIGTERM cancels a single token that
//! the accept loop, the admin channel and every background task watch. The signal handlers
//! are installed by `Signals::listen` before the server says it is listening, so a signal
//! that arrives right after that line is handled, never the default "terminate at once".

use tokio::signal::unix::{Signal, SignalKind, signal};
use tokio_util::sync::CancellationToken;

/// SIGINT and SIGTERM, registered with the runtime.
pub struct Signals {
    interrupt: Signal,
    terminate: Signal,
}

impl Signals {
    /// Registers the handlers now (inside the runtime).
    pub fn listen() -> std::io::Result<Self> {
        Ok(Self { interrupt: signal(SignalKind::interrupt())?, terminate: signal(SignalKind::terminate())? })
    }

    /// Cancels `token` on the first SIGINT or SIGTERM (or returns when it is cancelled).
    pub async fn cancel_on_signal(mut self, token: CancellationToken) {
        tokio::select! {
            _ = self.interrupt.recv() => {},
            _ = self.terminate.recv() => {},
            _ = token.cancelled() => return,
        }
        tracing::info!("shutdown signal received; finishing in-flight requests");
        token.cancel();
    }
}
