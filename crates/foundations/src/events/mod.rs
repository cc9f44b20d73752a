//! The in-process event bus behind `/ws`: services publish `{type, at, data}` after their
//! change has committed; every WebSocket connection subscribes. A message is serialised once
//! and shared by every subscriber. The bus is bounded: a subscriber that falls more than
//! `CAPACITY` messages behind is told it lagged (and `/ws` closes it) instead of the bus
//! growing. Events carry no secrets and no memory values, so viewers see what admins see.
//! Imports nothing of ours but the clock.

use std::sync::Arc;

use serde::Serialize;
use serde_json::{Value, json};
use tokio::sync::broadcast;

use crate::clock::SharedClock;

/// Messages kept for a slow subscriber before it lags.
pub const CAPACITY: usize = 256;

/// The event types published today.
pub const MEMORY_WRITTEN: &str = "memory.written";
pub const MEMORY_COMPRESSED: &str = "memory.compressed";
pub const DEAL_UPDATED: &str = "deal.updated";
pub const METRICS_ROLLUP: &str = "metrics.rollup";
pub const WORKFLOW_STARTED: &str = "workflow.started";
pub const WORKFLOW_STEP: &str = "workflow.step";
pub const WORKFLOW_WAITING: &str = "workflow.waiting";
/// Also sent when a workflow is cancelled (its `status` says so).
pub const WORKFLOW_COMPLETED: &str = "workflow.completed";
pub const WORKFLOW_FAILED: &str = "workflow.failed";
pub const APPROVAL_REQUESTED: &str = "approval.requested";
pub const APPROVAL_DECIDED: &str = "approval.decided";
/// 80 % of a pending approval's life has passed (docs/controls.md).
pub const APPROVAL_EXPIRING: &str = "approval.expiring";

/// One serialised message: `{"type":..,"at":..,"data":..}`.
pub type Message = Arc<str>;

/// Cheap to clone; clones publish to the same subscribers.
#[derive(Clone)]
pub struct Events {
    tx: broadcast::Sender<Message>,
    clock: SharedClock,
}

impl Events {
    /// A bus stamping its messages with `clock`.
    pub fn new(clock: SharedClock) -> Self {
        let (tx, _) = broadcast::channel(CAPACITY);
        Self { tx, clock }
    }

    /// The clock messages are stamped with.
    pub fn clock(&self) -> &SharedClock {
        &self.clock
    }

    /// Publishes one event; nothing happens when nobody listens.
    pub fn publish(&self, kind: &str, data: Value) {
        if self.tx.receiver_count() == 0 {
            return;
        }
        let at = self.clock.utc().format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string();
        let message = json!({ "type": kind, "at": at, "data": data }).to_string();
        // An error only means every subscriber left in the meantime.
        let _ = self.tx.send(Arc::from(message));
    }

    /// Publishes `data` serialised, and hands it back (so a service can publish in passing).
    pub fn publish_value<T: Serialize>(&self, kind: &str, data: T) -> T {
        if self.tx.receiver_count() > 0 {
            self.publish(kind, serde_json::to_value(&data).unwrap_or(Value::Null));
        }
        data
    }

    pub fn subscribe(&self) -> broadcast::Receiver<Message> {
        self.tx.subscribe()
    }

    pub fn subscribers(&self) -> usize {
        self.tx.receiver_count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn subscribers_receive_typed_messages_and_slow_ones_lag() {
        let events = Events::new(crate::clock::SystemClock::shared());
        events.publish(MEMORY_WRITTEN, json!({"lost": true}));
        let mut rx = events.subscribe();
        events.publish(MEMORY_WRITTEN, json!({"key": "k"}));
        let message = rx.recv().await.unwrap();
        let v: Value = serde_json::from_str(&message).unwrap_or_default();
        assert_eq!((v["type"].as_str(), v["data"]["key"].as_str()), (Some(MEMORY_WRITTEN), Some("k")));
        assert!(v["at"].as_str().is_some_and(|a| a.ends_with('Z')));
        for i in 0..CAPACITY + 1 {
            events.publish(DEAL_UPDATED, json!(i));
        }
        assert!(matches!(rx.recv().await, Err(broadcast::error::RecvError::Lagged(_))));
    }
}
