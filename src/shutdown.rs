//! One shutdown signal for the whole process: SIGINT or SIGTERM cancels a single token that
//! the accept loop, the admin channel and every background task watch.

use tokio_util::sync::CancellationToken;

/// Cancels `token` on the first SIGINT or SIGTERM. Spawned once by `app`.
pub async fn cancel_on_signal(token: CancellationToken) {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = ctrl_c => {},
                    _ = term.recv() => {},
                    _ = token.cancelled() => return,
                }
            }
            Err(e) => {
                tracing::warn!(error = %e, "cannot listen for SIGTERM; only SIGINT stops the server");
                tokio::select! { _ = ctrl_c => {}, _ = token.cancelled() => return }
            }
        }
    }
    #[cfg(not(unix))]
    tokio::select! { _ = ctrl_c => {}, _ = token.cancelled() => return }
    tracing::info!("shutdown signal received; finishing in-flight requests");
    token.cancel();
}
