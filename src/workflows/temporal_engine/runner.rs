//! Running Temporal workers: the appliance's (the six workflow types and the activities that
//! touch its redb, on its own task queue) and the compute worker (model calls and company data,
//! on the compute queue; the only one a `gtms worker` process runs). `Worker::run` is not
//! `Send`, so the workers run on a dedicated thread that drives them on the process's Tokio
//! runtime; workers that stop with an error or panic are rebuilt after a backoff (1 s doubling
//! to 30 s, from 1 s again after a run that served a minute); `shutdown` drains them.

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::time::Duration;

use futures_util::FutureExt;
use temporalio_client::Client;
use temporalio_sdk::{Runtime, Worker, WorkerOptions};
use tokio_util::sync::CancellationToken;

use super::activities::{ApplianceActivities, ComputeActivities};
use super::workflow_types;
use crate::workflows::activities::{Activities, Compute};

/// What one process serves.
#[derive(Clone)]
pub enum Role {
    /// The appliance: its queue (workflows + redb activities) and, when `serve_compute`, the
    /// compute queue.
    Appliance { activities: Box<Activities>, serve_compute: bool },
    /// A `gtms worker` process: the compute queue only.
    ComputeOnly(Compute),
}

/// The task queues to poll, and how long a stopping worker lets its running activities finish
/// before it cancels them (Temporal's graceful shutdown period).
#[derive(Debug, Clone)]
pub struct Queues {
    pub appliance: String,
    pub compute: String,
    pub shutdown_grace: Duration,
}

/// Starts the workers on their own thread; the returned handle ends after `shutdown` drained them.
pub fn spawn(
    client: Client,
    role: Role,
    queues: Queues,
    shutdown: CancellationToken,
) -> std::io::Result<std::thread::JoinHandle<()>> {
    let handle = tokio::runtime::Handle::current();
    std::thread::Builder::new().name("temporal-workers".into()).spawn(move || {
        handle.block_on(serve(client, role, queues, shutdown));
    })
}

async fn serve(client: Client, role: Role, queues: Queues, shutdown: CancellationToken) {
    let runtime = match Runtime::from_current_tokio(Default::default()) {
        Ok(runtime) => runtime,
        Err(e) => {
            tracing::error!(error = %e, "temporal: cannot create the worker runtime");
            return;
        }
    };
    let run = || run_once(&runtime, &client, &role, &queues, &shutdown);
    supervise(&shutdown, run, tokio::time::sleep).await;
}

/// Runs the workers (`run`) until they end cleanly or shutdown. Workers that stop with an error,
/// or panic, are rebuilt after `next_wait`: the Temporal SDK can panic while it shuts a failed
/// worker down (`Workflow processing terminates cleanly`), and without the catch that panic
/// ended this thread and the appliance ran no workflow again.
async fn supervise<Run, Ran, Sleep, Slept>(shutdown: &CancellationToken, mut run: Run, mut sleep: Sleep)
where
    Run: FnMut() -> Ran,
    Ran: Future<Output = Result<(), RunError>>,
    Sleep: FnMut(Duration) -> Slept,
    Slept: Future<Output = ()>,
{
    let mut wait = None;
    while !shutdown.is_cancelled() {
        let started = tokio::time::Instant::now();
        let outcome = AssertUnwindSafe(run()).catch_unwind().await;
        let next = next_wait(wait, started.elapsed());
        match outcome {
            Ok(Ok(())) => return,
            Ok(Err(e)) => tracing::warn!(error = %e, retry_in_secs = next.as_secs(), "temporal: a worker stopped"),
            Err(panic) => tracing::error!(
                panic = panic_message(panic.as_ref()),
                retry_in_secs = next.as_secs(),
                "temporal: a worker panicked; rebuilding it"
            ),
        }
        tokio::select! {
            _ = shutdown.cancelled() => return,
            _ = sleep(next) => {}
        }
        wait = Some(next);
    }
}

fn panic_message(panic: &(dyn std::any::Any + Send)) -> &str {
    panic.downcast_ref::<String>().map(String::as_str).or_else(|| panic.downcast_ref::<&str>().copied()).unwrap_or("?")
}

/// A run this long served work: the failure after it starts the backoff afresh.
const SERVED: Duration = Duration::from_secs(60);

/// The wait before rebuilding workers that stopped after `ran_for`: 1 s the first time and
/// after a run that served work, otherwise twice the previous wait, at most 30 s.
fn next_wait(previous: Option<Duration>, ran_for: Duration) -> Duration {
    match previous {
        Some(previous) if ran_for < SERVED => (previous * 2).min(Duration::from_secs(30)),
        _ => Duration::from_secs(1),
    }
}

type RunError = Box<dyn std::error::Error + Send + Sync>;

fn compute_worker(runtime: &Runtime, client: &Client, compute: Compute, queues: &Queues) -> Result<Worker, RunError> {
    let options = WorkerOptions::new(queues.compute.clone())
        .register_activities(ComputeActivities { compute })
        .graceful_shutdown_period(queues.shutdown_grace)
        .build();
    Ok(Worker::new(runtime, client.clone(), options)?)
}

/// Runs the workers until shutdown (`Ok`) or until one fails (`Err`; the other is stopped).
async fn run_once(
    runtime: &Runtime,
    client: &Client,
    role: &Role,
    queues: &Queues,
    shutdown: &CancellationToken,
) -> Result<(), RunError> {
    let mut workers = Vec::new();
    if let Role::Appliance { activities, .. } = role {
        let options = WorkerOptions::new(queues.appliance.clone())
            .register_activities(ApplianceActivities { activities: Activities::clone(activities) })
            .graceful_shutdown_period(queues.shutdown_grace)
            .build();
        workers.push(Worker::new(runtime, client.clone(), workflow_types::register(options)?)?);
    }
    match role {
        Role::Appliance { activities, serve_compute: true } => {
            workers.push(compute_worker(runtime, client, activities.compute.clone(), queues)?)
        }
        Role::Appliance { serve_compute: false, .. } => {}
        Role::ComputeOnly(compute) => workers.push(compute_worker(runtime, client, compute.clone(), queues)?),
    }
    let stops: Vec<_> = workers.iter().map(|w| w.shutdown_handle()).collect();
    let stop_all = || stops.iter().for_each(|stop| stop());
    let runs = futures_util::future::join_all(workers.iter_mut().map(|w| async {
        let outcome = gtms_temporal_calls::run(w).await;
        stop_all();
        outcome
    }));
    tokio::pin!(runs);
    let outcomes = tokio::select! {
        outcomes = &mut runs => outcomes,
        _ = shutdown.cancelled() => {
            stop_all();
            runs.await
        }
    };
    for outcome in outcomes {
        outcome?;
    }
    if shutdown.is_cancelled() { Ok(()) } else { Err("the workers stopped".into()) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workers_that_keep_failing_back_off_to_30_s_and_a_run_that_served_starts_again_at_1_s() {
        let quick = Duration::from_millis(10);
        let mut wait = None;
        let waits: Vec<u64> = (0..7)
            .map(|_| {
                let next = next_wait(wait, quick);
                wait = Some(next);
                next.as_secs()
            })
            .collect();
        assert_eq!(waits, [1, 2, 4, 8, 16, 30, 30]);
        assert_eq!(next_wait(wait, SERVED), Duration::from_secs(1));
    }

    #[tokio::test]
    async fn workers_that_panic_or_fail_are_rebuilt_and_a_clean_end_stops() {
        let shutdown = CancellationToken::new();
        let (mut runs, mut waits) = (0, Vec::new());
        let run = || {
            runs += 1;
            let attempt = runs;
            async move {
                match attempt {
                    1 => panic!("Workflow processing terminates cleanly: an SDK panic"),
                    2 => Err::<(), RunError>("the workers stopped".into()),
                    _ => Ok(()),
                }
            }
        };
        supervise(&shutdown, run, |wait| {
            waits.push(wait.as_secs());
            async {}
        })
        .await;
        assert_eq!((runs, waits), (3, vec![1, 2]), "a panic is one more failure, then backoff and a rebuild");
    }

    #[tokio::test]
    async fn shutdown_stops_the_rebuilding() {
        let shutdown = CancellationToken::new();
        let mut runs = 0;
        let run = || {
            runs += 1;
            async { Err::<(), RunError>("the workers stopped".into()) }
        };
        supervise(&shutdown, run, |_| {
            shutdown.cancel();
            async {}
        })
        .await;
        assert_eq!(runs, 1);
    }
}
