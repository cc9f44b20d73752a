//! The server side of the admin channel: a Unix socket listener that answers one JSON-line
//! request per connection until shutdown, then removes its socket file. Connection tasks join
//! the app's task tracker, so shutdown waits for an answer being written; a failing `accept`
//! (e.g. out of file descriptors) is retried after a growing pause instead of spinning.

use std::path::{Path, PathBuf};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{UnixListener, UnixStream};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use super::{AdminReply, AdminRequest, execute};
use crate::state::AppState;

/// Largest request line accepted from a client.
const MAX_REQUEST: usize = 64 * 1024;

/// Binds the socket with mode 0600. The data file's lock is already held by this process,
/// so any socket file left at `path` is stale (a killed server) and is replaced. The socket
/// is bound under a temporary name and renamed once its mode is set, so it is never
/// reachable with wider permissions.
pub fn bind(path: &Path) -> std::io::Result<UnixListener> {
    use std::os::unix::fs::PermissionsExt;
    let tmp = PathBuf::from(format!("{}.{}.tmp", path.display(), std::process::id()));
    let _ = std::fs::remove_file(&tmp);
    let listener = UnixListener::bind(&tmp)?;
    std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o600))?;
    std::fs::rename(&tmp, path)?;
    Ok(listener)
}

/// Longest pause between failing `accept` calls.
const MAX_BACKOFF: Duration = Duration::from_secs(1);

pub async fn run(
    state: AppState,
    listener: UnixListener,
    path: PathBuf,
    shutdown: CancellationToken,
    tasks: TaskTracker,
) {
    let mut backoff = Duration::from_millis(5);
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    tracing::warn!(error = %e, retry_in = ?backoff, "admin socket accept failed");
                    tokio::select! {
                        _ = tokio::time::sleep(backoff) => {},
                        _ = shutdown.cancelled() => break,
                    }
                    backoff = (backoff * 2).min(MAX_BACKOFF);
                    continue;
                }
            },
            _ = shutdown.cancelled() => break,
        };
        backoff = Duration::from_millis(5);
        let state = state.clone();
        tasks.spawn(async move {
            if let Err(e) = answer(&state, stream).await {
                tracing::debug!(error = %e, "admin connection failed");
            }
        });
    }
    let _ = std::fs::remove_file(&path);
}

async fn answer(state: &AppState, stream: UnixStream) -> std::io::Result<()> {
    let (read, mut write) = stream.into_split();
    let mut line = String::new();
    let mut reader = BufReader::new(read.take(MAX_REQUEST as u64));
    reader.read_line(&mut line).await?;
    let reply = match serde_json::from_str::<AdminRequest>(&line) {
        Ok(request) => execute(state, request).await,
        Err(e) => AdminReply::error(format!("bad admin request: {e}")),
    };
    let mut bytes = serde_json::to_vec(&reply).map_err(std::io::Error::other)?;
    bytes.push(b'\n');
    write.write_all(&bytes).await?;
    write.shutdown().await
}
