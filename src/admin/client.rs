//! The CLI side of the admin channel: send one request to a running server.

use std::path::Path;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::UnixStream;

use super::{AdminReply, AdminRequest};

#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error("no gtms server is running on this data file")]
    NotRunning,
    #[error("admin channel: {0}")]
    Io(#[from] std::io::Error),
    #[error("admin channel: the server sent an unreadable reply: {0}")]
    Reply(#[from] serde_json::Error),
    #[error("admin channel: the server did not answer in time")]
    Timeout,
}

pub async fn send(socket: &Path, request: &AdminRequest) -> Result<AdminReply, ClientError> {
    send_within(socket, request, Duration::from_secs(60)).await
}

/// `send` with a caller-chosen deadline (a backup of a large file takes longer than a minute).
pub async fn send_within(socket: &Path, request: &AdminRequest, limit: Duration) -> Result<AdminReply, ClientError> {
    let stream = match UnixStream::connect(socket).await {
        Ok(s) => s,
        Err(e) if matches!(e.kind(), std::io::ErrorKind::NotFound | std::io::ErrorKind::ConnectionRefused) => {
            return Err(ClientError::NotRunning);
        }
        Err(e) => return Err(e.into()),
    };
    let exchange = async {
        let (read, mut write) = stream.into_split();
        let mut line = serde_json::to_vec(request)?;
        line.push(b'\n');
        write.write_all(&line).await?;
        let mut reply = String::new();
        BufReader::new(read).read_line(&mut reply).await?;
        Ok::<_, ClientError>(serde_json::from_str(&reply)?)
    };
    tokio::time::timeout(limit, exchange).await.map_err(|_| ClientError::Timeout)?
}
