//! Running Temporal workers: the appliance's (the six workflow types and the activities that
//! touch its redb, on its own task queue) and the compute worker (model calls and company data,
//! on the compute queue; the only one a `gtms worker` process runs). `Worker::run` is not
//! `Send`, so the workers run on a dedicated thread that drives them on the process's Tokio
//! runtime; a worker that stops with an error is rebuilt after a backoff; `shutdown` drains them.

use std::time::Duration;

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
    Appliance { activities: Activities, serve_compute: bool },
    /// A `gtms worker` process: the compute queue only.
    ComputeOnly(Compute),
}

/// The task queues to poll.
#[derive(Debug, Clone)]
pub struct Queues {
    pub appliance: String,
    pub compute: String,
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
    let mut backoff = Duration::from_secs(1);
    while !shutdown.is_cancelled() {
        match run_once(&runtime, &client, &role, &queues, &shutdown).await {
            Ok(()) => return,
            Err(e) => tracing::warn!(error = %e, retry_in_secs = backoff.as_secs(), "temporal: a worker stopped"),
        }
        tokio::select! {
            _ = shutdown.cancelled() => return,
            _ = tokio::time::sleep(backoff) => {}
        }
        backoff = (backoff * 2).min(Duration::from_secs(30));
    }
}

type RunError = Box<dyn std::error::Error + Send + Sync>;

fn compute_worker(runtime: &Runtime, client: &Client, compute: Compute, queue: &str) -> Result<Worker, RunError> {
    let options = WorkerOptions::new(queue.to_owned()).register_activities(ComputeActivities { compute }).build();
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
            .register_activities(ApplianceActivities { activities: activities.clone() })
            .build();
        workers.push(Worker::new(runtime, client.clone(), workflow_types::register(options)?)?);
    }
    match role {
        Role::Appliance { activities, serve_compute: true } => {
            workers.push(compute_worker(runtime, client, activities.compute.clone(), &queues.compute)?)
        }
        Role::Appliance { serve_compute: false, .. } => {}
        Role::ComputeOnly(compute) => workers.push(compute_worker(runtime, client, compute.clone(), &queues.compute)?),
    }
    let stops: Vec<_> = workers.iter().map(|w| w.shutdown_handle()).collect();
    let stop_all = || stops.iter().for_each(|stop| stop());
    let runs = futures_util::future::join_all(workers.iter_mut().map(|w| async {
        let outcome = w.run().await;
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
