//! Connection hygiene for the accept loop: the connection cap with its health reserve, the
//! request-body deadline, and the back-off after failed `accept` calls.
//!
//! The cap: up to `max_connections` connections are served normally. Past it, up to
//! `HEALTH_RESERVE` more are accepted in *reserve* mode, where only `GET /api/health` is
//! answered (everything else gets a 503 envelope and the connection closes), so a load
//! balancer still sees the appliance while its connections are used up; past the reserve a
//! connection is closed as soon as it is accepted, which frees its file descriptor at once
//! instead of leaving it to fill the kernel's backlog.

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use hyper::body::{Body, Frame, SizeHint};

/// Connections beyond the cap that may still ask for `/api/health`.
pub const HEALTH_RESERVE: usize = 32;

/// How an accepted connection is served.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Normal,
    /// Over the cap: health only.
    Reserve,
}

/// Counts open connections; a `Slot` is held for the life of each.
#[derive(Debug)]
pub struct ConnectionGate {
    open: Arc<AtomicUsize>,
    cap: usize,
}

#[derive(Debug)]
pub struct Slot {
    open: Arc<AtomicUsize>,
    pub mode: Mode,
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.open.fetch_sub(1, Ordering::AcqRel);
    }
}

impl ConnectionGate {
    pub fn new(cap: usize) -> Self {
        Self { open: Arc::new(AtomicUsize::new(0)), cap: cap.max(1) }
    }

    /// A slot for a new connection, or `None` when even the reserve is full.
    pub fn admit(&self) -> Option<Slot> {
        let before = self.open.fetch_add(1, Ordering::AcqRel);
        let mut slot = Slot { open: Arc::clone(&self.open), mode: Mode::Normal };
        if before >= self.cap + HEALTH_RESERVE {
            return None;
        }
        if before >= self.cap {
            slot.mode = Mode::Reserve;
        }
        Some(slot)
    }
}

/// Exponential back-off after failed `accept` calls (e.g. `EMFILE`): 10 ms doubling to 1 s,
/// reset by the next success, so a full file table is not spun on.
#[derive(Debug, Default)]
pub struct AcceptBackoff {
    failures: u32,
}

impl AcceptBackoff {
    pub fn failed(&mut self) -> Duration {
        self.failures = self.failures.saturating_add(1);
        Duration::from_millis(10u64.saturating_mul(1 << self.failures.min(7)).min(1000))
    }

    pub fn succeeded(&mut self) {
        self.failures = 0;
    }
}

/// A request body that fails once `deadline` passes before its end: a client that sends the
/// head and then trickles (or stalls) the body is cut off.
pub struct TimedBody<B> {
    inner: B,
    deadline: Pin<Box<tokio::time::Sleep>>,
}

impl<B> TimedBody<B> {
    pub fn new(inner: B, limit: Duration) -> Self {
        Self { inner, deadline: Box::pin(tokio::time::sleep(limit)) }
    }
}

/// The request body did not arrive in time.
#[derive(Debug, thiserror::Error)]
#[error("the request body did not arrive within the body timeout")]
pub struct BodyTimeout;

impl<B> Body for TimedBody<B>
where
    B: Body<Data = Bytes> + Unpin,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    type Data = Bytes;
    type Error = Box<dyn std::error::Error + Send + Sync>;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        if let Poll::Ready(frame) = Pin::new(&mut self.inner).poll_frame(cx) {
            return Poll::Ready(frame.map(|f| f.map_err(Into::into)));
        }
        match self.deadline.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Some(Err(Box::new(BodyTimeout)))),
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gate_serves_the_cap_then_the_reserve_then_refuses() {
        let gate = ConnectionGate::new(2);
        let normal: Vec<Slot> = (0..2).filter_map(|_| gate.admit()).collect();
        assert!(normal.iter().all(|s| s.mode == Mode::Normal));
        let reserve: Vec<Slot> = (0..HEALTH_RESERVE).filter_map(|_| gate.admit()).collect();
        assert!(reserve.len() == HEALTH_RESERVE && reserve.iter().all(|s| s.mode == Mode::Reserve));
        assert!(gate.admit().is_none());
        drop(normal);
        drop(reserve);
        assert_eq!(gate.admit().map(|s| s.mode), Some(Mode::Normal), "slots are given back");
    }

    #[test]
    fn accept_backoff_grows_to_a_cap_and_resets() {
        let mut b = AcceptBackoff::default();
        let waits: Vec<u128> = (0..9).map(|_| b.failed().as_millis()).collect();
        assert_eq!(waits, [20, 40, 80, 160, 320, 640, 1000, 1000, 1000]);
        b.succeeded();
        assert_eq!(b.failed().as_millis(), 20);
    }

    #[tokio::test]
    async fn a_stalled_body_fails_at_its_deadline() {
        use http_body_util::BodyExt;
        let stalled = futures_util::stream::pending::<Result<Frame<Bytes>, std::convert::Infallible>>();
        let timed = TimedBody::new(http_body_util::StreamBody::new(stalled), Duration::from_millis(10));
        let err = timed.collect().await.err().map(|e| e.to_string());
        assert_eq!(err.as_deref(), Some("the request body did not arrive within the body timeout"));
    }
}
