//! Group commit: concurrent writers share one durable redb commit. A writer queues its
//! operation and waits; when no commit is under way, it starts the one committer, which takes
//! every queued operation, applies them in queue order inside one write transaction, commits
//! (fsync) once, then answers each waiter. It repeats while operations queued up during the
//! commit, and stops when the queue is empty, so no task outlives the work (and none keeps the
//! database open after the server stops). An answer is sent only after the commit returned,
//! so an acknowledged write is on disk. If the transaction fails, every operation of that batch
//! gets the error and none of them is applied.

use std::sync::{Arc, Mutex};

use redb::{Database, WriteTransaction};
use tokio::sync::oneshot;

use super::StoreError;

/// Applies one operation inside the batch's transaction. A logical refusal (a stale version)
/// belongs in `Out`; an `Err` aborts the whole batch.
pub(crate) type Apply<Op, Out> = fn(&WriteTransaction, Op) -> Result<Out, StoreError>;

type Waiter<Out> = oneshot::Sender<Result<Out, StoreError>>;

/// Sees each outcome of a committed batch before its writer is answered (secondary indexes).
pub(crate) type Committed<Out> = Box<dyn Fn(&Out) + Send + Sync>;

struct Queue<Op, Out> {
    pending: Vec<(Op, Waiter<Out>)>,
    committing: bool,
}

pub(crate) struct GroupCommit<Op, Out> {
    queue: Mutex<Queue<Op, Out>>,
    apply: Apply<Op, Out>,
    committed: Committed<Out>,
}

impl<Op: Send + 'static, Out: Send + 'static> GroupCommit<Op, Out> {
    pub(crate) fn new(apply: Apply<Op, Out>, committed: Committed<Out>) -> Self {
        Self { queue: Mutex::new(Queue { pending: Vec::new(), committing: false }), apply, committed }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Queue<Op, Out>> {
        self.queue.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Queues `op` and returns its outcome once the batch holding it has committed.
    pub(crate) async fn submit(self: &Arc<Self>, db: &Arc<Database>, op: Op) -> Result<Out, StoreError> {
        let (tx, rx) = oneshot::channel();
        let start = {
            let mut queue = self.lock();
            queue.pending.push((op, tx));
            !std::mem::replace(&mut queue.committing, true)
        };
        if start {
            let (this, db) = (Arc::clone(self), Arc::clone(db));
            tokio::task::spawn_blocking(move || this.commit_until_empty(&db));
        }
        rx.await.map_err(|_| StoreError::GroupCommit("the committer stopped before answering".into()))?
    }

    fn commit_until_empty(&self, db: &Database) {
        loop {
            let batch = {
                let mut queue = self.lock();
                if queue.pending.is_empty() {
                    queue.committing = false;
                    return;
                }
                std::mem::take(&mut queue.pending)
            };
            let (ops, waiters): (Vec<Op>, Vec<Waiter<Out>>) = batch.into_iter().unzip();
            match self.commit(db, ops) {
                Ok(outs) => {
                    for (waiter, out) in waiters.into_iter().zip(outs) {
                        (self.committed)(&out);
                        let _ = waiter.send(Ok(out));
                    }
                }
                Err(e) => {
                    tracing::error!(error = %e, writes = waiters.len(), "group commit failed; no write of the batch applied");
                    let message = e.to_string();
                    for waiter in waiters {
                        let _ = waiter.send(Err(StoreError::GroupCommit(message.clone())));
                    }
                }
            }
        }
    }

    fn commit(&self, db: &Database, ops: Vec<Op>) -> Result<Vec<Out>, StoreError> {
        let txn = db.begin_write()?;
        let mut outs = Vec::with_capacity(ops.len());
        for op in ops {
            outs.push((self.apply)(&txn, op)?);
        }
        txn.commit()?;
        Ok(outs)
    }
}
