//! Team-chat notifications (approval requested, workflow finished or failed, SLA escalation).
//! Every notification is first queued durably in the outbox (`store::OutboxRecord`, one id per
//! workflow step, so a re-run step never notifies twice); when a Slack-compatible incoming
//! webhook is configured, a delivery task posts `{"text": ...}` to it and retries failures with
//! exponential backoff (capped); without one the outbox is what `/status` shows. Delivery never
//! fails the workflow that queued it.

use std::sync::Arc;
use std::time::Duration;

use futures_util::future::BoxFuture;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use crate::config::Secret;
use crate::store::{OutboxRecord, Store, StoreError};

const BACKOFF_BASE_MS: i64 = 1_000;
const BACKOFF_CAP_MS: i64 = 300_000;
const IDLE_POLL: Duration = Duration::from_secs(60);

/// Somewhere notifications are delivered.
pub trait Notifier: Send + Sync {
    fn deliver<'a>(&'a self, text: &'a str) -> BoxFuture<'a, Result<(), String>>;
}

/// A Slack-compatible incoming webhook. The URL is the secret: it never reaches a log line.
pub struct Webhook {
    client: reqwest::Client,
    url: Secret,
}

impl Webhook {
    pub fn new(url: Secret) -> Result<Self, String> {
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .build()
            .map_err(|e| format!("building the webhook client: {e}"))?;
        Ok(Self { client, url })
    }
}

impl Notifier for Webhook {
    fn deliver<'a>(&'a self, text: &'a str) -> BoxFuture<'a, Result<(), String>> {
        Box::pin(async move {
            let res = self
                .client
                .post(self.url.expose())
                .json(&serde_json::json!({ "text": text }))
                .send()
                .await
                .map_err(|e| e.without_url().to_string())?;
            if res.status().is_success() { Ok(()) } else { Err(format!("the webhook answered {}", res.status())) }
        })
    }
}

/// The outbox and its delivery task. Cheap to clone.
#[derive(Clone)]
pub struct Notifications {
    store: Store,
    sink: Option<Arc<dyn Notifier>>,
    wake: Arc<Notify>,
}

impl Notifications {
    pub fn new(store: Store, sink: Option<Arc<dyn Notifier>>) -> Self {
        Self { store, sink, wake: Arc::new(Notify::new()) }
    }

    /// Whether a webhook is configured (otherwise the outbox is the destination).
    pub fn has_webhook(&self) -> bool {
        self.sink.is_some()
    }

    /// Queues one notification (once per `id`) and wakes the delivery task.
    pub async fn queue(
        &self,
        id: String,
        event: &str,
        text: String,
        workflow_id: Option<String>,
    ) -> Result<bool, StoreError> {
        let now = self.store.now_ms();
        let record = OutboxRecord {
            id,
            event: event.to_owned(),
            text,
            workflow_id,
            created_ms: now,
            delivered_ms: None,
            attempts: 0,
            last_error: None,
            next_attempt_ms: now,
        };
        let new = self.store.queue_notification(record).await?;
        if new {
            self.wake.notify_one();
        }
        Ok(new)
    }

    /// Delivers queued notifications until `shutdown`; returns at once without a webhook.
    pub async fn run(self, shutdown: CancellationToken) {
        let Some(sink) = self.sink.clone() else { return };
        loop {
            let wait = match self.deliver_due(sink.as_ref()).await {
                Ok(Some(next_ms)) => Duration::from_millis((next_ms - self.store.now_ms()).max(1) as u64),
                Ok(None) => IDLE_POLL,
                Err(e) => {
                    tracing::warn!(error = %e, "could not read the notification outbox");
                    IDLE_POLL
                }
            };
            tokio::select! {
                () = shutdown.cancelled() => return,
                () = self.wake.notified() => {}
                () = tokio::time::sleep(wait) => {}
            }
        }
    }

    /// Tries every due notification once; returns when the next one is due.
    async fn deliver_due(&self, sink: &dyn Notifier) -> Result<Option<i64>, StoreError> {
        let mut next: Option<i64> = None;
        for mut record in self.store.undelivered().await? {
            let now = self.store.now_ms();
            if record.next_attempt_ms > now {
                next = Some(next.map_or(record.next_attempt_ms, |n| n.min(record.next_attempt_ms)));
                continue;
            }
            record.attempts += 1;
            match sink.deliver(&record.text).await {
                Ok(()) => record.delivered_ms = Some(self.store.now_ms()),
                Err(e) => {
                    let backoff = (BACKOFF_BASE_MS << record.attempts.min(20)).min(BACKOFF_CAP_MS);
                    tracing::warn!(id = %record.id, attempts = record.attempts, error = %e, "notification not delivered; will retry");
                    record.last_error = Some(e);
                    record.next_attempt_ms = now + backoff;
                    next = Some(next.map_or(record.next_attempt_ms, |n| n.min(record.next_attempt_ms)));
                }
            }
            self.store.update_notification(record).await?;
        }
        Ok(next)
    }
}
