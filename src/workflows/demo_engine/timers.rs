//! The demo engine's timers: one task holding every pending deadline (retry backoffs, SLA
//! gates) in a min-heap, waking the workflow when its time comes. Timers are not state: the
//! workflow records hold the deadlines, and `DemoEngine::recover` re-arms them after a restart.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Weak;
use std::time::Duration;

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use super::Inner;
use crate::clock::SharedClock;

#[derive(Clone)]
pub struct Timers {
    tx: mpsc::UnboundedSender<(i64, String)>,
}

impl Timers {
    pub fn spawn(engine: Weak<Inner>, clock: SharedClock, tasks: &TaskTracker, shutdown: CancellationToken) -> Self {
        let (tx, rx) = mpsc::unbounded_channel();
        tasks.spawn(run(engine, clock, rx, shutdown));
        Self { tx }
    }

    /// Wakes workflow `id` at unix milliseconds `at_ms`.
    pub fn at(&self, at_ms: i64, id: String) {
        let _ = self.tx.send((at_ms, id));
    }
}

async fn run(
    engine: Weak<Inner>,
    clock: SharedClock,
    mut rx: mpsc::UnboundedReceiver<(i64, String)>,
    shutdown: CancellationToken,
) {
    let mut heap: BinaryHeap<Reverse<(i64, String)>> = BinaryHeap::new();
    loop {
        let now = clock.now_ms();
        while heap.peek().is_some_and(|Reverse((at, _))| *at <= now) {
            let Some(Reverse((_, id))) = heap.pop() else { break };
            match engine.upgrade() {
                Some(inner) => inner.enqueue(id),
                None => return,
            }
        }
        let wait = heap
            .peek()
            .map_or(Duration::from_secs(3600), |Reverse((at, _))| Duration::from_millis((at - now).max(1) as u64));
        tokio::select! {
            () = shutdown.cancelled() => return,
            message = rx.recv() => match message {
                Some(timer) => heap.push(Reverse(timer)),
                None => return,
            },
            () = tokio::time::sleep(wait) => {}
        }
    }
}
