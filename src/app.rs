//! Wiring: the only place that builds the state, binds the port and the admin socket,
//! spawns every background task with the shutdown token, and serves until shutdown.

use std::net::SocketAddr;

use tokio::net::TcpListener;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::config::Config;
use crate::metrics::View;
use crate::state::AppState;
use crate::store::{Store, StoreError};
use crate::{admin, http, jobs, server, shutdown, tls};

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error(transparent)]
    Config(#[from] crate::config::ConfigError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("cannot listen on {addr}: {source}")]
    Bind { addr: SocketAddr, source: std::io::Error },
    #[error(transparent)]
    Tls(#[from] tls::TlsError),
    #[error("cannot create the admin socket {path}: {source}")]
    AdminSocket { path: String, source: std::io::Error },
    #[error(transparent)]
    State(#[from] crate::state::StateError),
    #[error(transparent)]
    Demo(#[from] crate::demo::DemoError),
    #[error("scheduler: {0}")]
    Scheduler(#[from] crate::jobs::ScheduleError),
    #[error("cannot install the signal handlers: {0}")]
    Signals(std::io::Error),
    #[error("workflow engine: {0}")]
    Engine(#[from] crate::workflows::EngineError),
    #[error("the server task failed: {0}")]
    Task(#[from] tokio::task::JoinError),
}

/// A started appliance: its bound address and the handle to stop it.
pub struct RunningApp {
    pub addr: SocketAddr,
    pub state: AppState,
    shutdown: CancellationToken,
    handle: JoinHandle<()>,
    /// True once the first start's work that runs beside the server (`first_start`) is done.
    settled: tokio::sync::watch::Receiver<bool>,
}

impl RunningApp {
    pub fn shutdown_token(&self) -> CancellationToken {
        self.shutdown.clone()
    }

    /// Waits until the first start's invite, made while the server already answers, is made
    /// (or was not needed): what a caller that counts argon2 runs or invites waits for.
    pub async fn settled(&self) {
        let mut settled = self.settled.clone();
        // An error means the task is gone, and with it the sender: nothing is left to wait for.
        let _ = settled.wait_for(|done| *done).await;
    }

    /// Waits until the server has stopped (after the token is cancelled).
    pub async fn wait(self) -> Result<(), AppError> {
        let RunningApp { handle, state, .. } = self;
        drop(state);
        handle.await?;
        Ok(())
    }

    /// Signals shutdown and waits for in-flight requests and background tasks to finish.
    pub async fn stop(self) -> Result<(), AppError> {
        self.shutdown.cancel();
        self.wait().await
    }
}

/// Opens the store, binds the port (0 picks a free one) and starts serving in the background.
pub async fn start(config: Config) -> Result<RunningApp, AppError> {
    start_with_clock(config, crate::clock::SystemClock::shared()).await
}

/// As `start`, with the clock everything reads (tests drive a `ManualClock`).
pub async fn start_with_clock(config: Config, clock: crate::clock::SharedClock) -> Result<RunningApp, AppError> {
    crate::config::check_data_dir(&config.data)?;
    // The company lookup and the MCP tools are made from the binary alone: on the blocking pool,
    // while the store opens and the demo workspace loads (issue 27: the two were most of the
    // time to the first answer).
    let companies = tokio::task::spawn_blocking(crate::state::CompanyData::embedded);
    let toolbox = tokio::task::spawn_blocking(crate::mcp::Toolbox::build);
    let data = config.data.clone();
    let store = tokio::task::spawn_blocking(move || Store::open_with_clock(&data, clock)).await??;
    let boot = store.record_boot(store.clock().now_secs()).await?;
    let tls = config.tls.as_ref().map(tls::acceptor).transpose()?;
    let listener =
        TcpListener::bind(config.listen).await.map_err(|source| AppError::Bind { addr: config.listen, source })?;
    let addr = listener.local_addr().map_err(|source| AppError::Bind { addr: config.listen, source })?;
    let socket = admin::socket_path(&config.data);
    let admin_listener = admin::server::bind(&socket)
        .map_err(|source| AppError::AdminSocket { path: socket.display().to_string(), source })?;

    seed_workspace(&config, &store).await?;
    let (tasks, shutdown) = (TaskTracker::new(), CancellationToken::new());
    let companies = companies.await?.map_err(crate::state::StateError::from)?;
    let state = AppState::with_engine(config, store, companies, &tasks, shutdown.clone()).await?;
    restore_rate_windows(&state).await?;
    let scheduler = jobs::Scheduler::start(state.store().clone(), jobs::all(&state))?;
    let scheme = if tls.is_some() { "https" } else { "http" };
    tracing::info!(
        %addr, mode = state.config().mode.as_str(), data = %state.config().data.display(), boots = boot.boots,
        "gtms {} listening on {scheme}://{addr}", crate::state::VERSION
    );
    // The first start's admin invite is hashed (argon2, tens of milliseconds) while the server
    // already answers; its banner follows the "listening on" line. Then the simulated team
    // starts at once, so the status page shows it within seconds.
    let (settle, settled) = tokio::sync::watch::channel(false);
    let (first, url) = (state.clone(), format!("{scheme}://{addr}/"));
    let team = jobs::simulated_team(&state).map(|team| (team, state.store().clone()));
    tasks.spawn(async move {
        first_start(first, url).await;
        settle.send_replace(true);
        if let Some((team, store)) = team {
            for _ in 0..crate::demo::simulate::START_TICKS {
                jobs::run_once(&store, &team).await;
            }
        }
    });
    tasks.spawn(admin::server::run(state.clone(), admin_listener, socket, shutdown.clone(), tasks.clone()));
    let token = shutdown.clone();
    let final_state = state.clone();
    tasks.spawn(async move {
        token.cancelled().await;
        scheduler.shutdown().await;
        let now = final_state.clock().now();
        if let Err(e) = crate::limits::persist::save(final_state.store(), &final_state.limiters(), now).await {
            tracing::warn!(error = %e, "could not save the rate-limit windows at shutdown");
        }
        if let Err(e) = final_state.api_keys().flush_usage().await {
            tracing::warn!(error = %e, "could not roll up API key usage at shutdown");
        }
    });

    let mcp = std::sync::Arc::new(crate::mcp::Mcp::new(state.clone(), toolbox.await?, addr, shutdown.clone()));
    let router = server::Router::new(warp::service(http::routes(state.clone())), state.clone(), mcp);
    let token = shutdown.clone();
    let handle = tokio::spawn(async move {
        server::serve(listener, tls, router, token).await;
        tasks.close();
        tasks.wait().await;
        tracing::info!("stopped");
    });
    Ok(RunningApp { addr, state, shutdown, handle, settled })
}

/// Loads the rate-limit counters saved by the last run that still belong to the current windows.
async fn restore_rate_windows(state: &AppState) -> Result<(), AppError> {
    let restored = crate::limits::persist::load(state.store(), &state.limiters(), state.clock().now()).await?;
    if restored > 0 {
        tracing::info!(restored, "rate-limit windows restored from the data file");
    }
    Ok(())
}

/// In demo mode an empty workspace gets one admin invite, shown this once
/// (`announce_first_start`), so an evaluator can sign in without reading the docs. It runs
/// once the server answers: nobody can use the code before it is shown, and a health check
/// need not wait for the hash. Should it fail, the error says how to make an invite by hand.
async fn first_start(state: AppState, url: String) {
    if state.config().mode != crate::config::Mode::Demo || state.sessions().has_invites() {
        return;
    }
    let now = state.clock().now_secs();
    match state.sessions().create_invite(crate::domain::Role::Admin, "demo admin", None, now).await {
        Ok((code, _)) => announce_first_start(state.config().log_format, &url, &code),
        Err(e) => tracing::error!(
            error = %e,
            "could not make the first start's admin invite; make one with `gtms invites create --role admin --name NAME`"
        ),
    }
}

/// The first start's one block a person cannot miss: where to open the appliance and the
/// admin invite code to sign in with. Human logs get a framed block on stderr; JSON logs (read
/// by machines) get the same as one warning line.
fn announce_first_start(format: crate::config::LogFormat, url: &str, code: &str) {
    let sentence =
        format!("first start in demo mode: sign in with the admin invite code {code} (shown only this once)");
    if format == crate::config::LogFormat::Json {
        tracing::warn!(url, "{sentence}");
        return;
    }
    let lines = [
        "gtms is running in demo mode.".to_owned(),
        format!("Open        {url}"),
        format!("Sign in with the admin invite code {code} (shown only this once)"),
    ];
    let width = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let rule = "=".repeat(width + 4);
    let body: Vec<String> = lines.iter().map(|l| format!("| {l:<width$} |")).collect();
    eprintln!("\n{rule}\n{}\n{rule}\n", body.join("\n"));
}

/// Loads the demo workspace on the first start (never again), then makes sure every metric
/// view has a rollup before the first request.
async fn seed_workspace(config: &Config, store: &Store) -> Result<(), AppError> {
    if config.seed_demo_workspace && crate::demo::seed_once(store).await? {
        tracing::info!("loaded the demo workspace (workers, deals, accounts, history)");
    }
    if store.rollup(crate::metrics::PipelineView::NAME).await?.is_none() {
        let job = jobs::metrics_rollup(&config.schedules.metrics_rollup, store.clone());
        jobs::run_once(store, &job).await;
    }
    Ok(())
}

/// Runs until SIGINT or SIGTERM, then shuts down gracefully.
pub async fn run(config: Config) -> Result<(), AppError> {
    let signals = shutdown::Signals::listen().map_err(AppError::Signals)?;
    let app = start(config).await?;
    // The signal listener ends when the token is cancelled by anyone; the app then drains.
    let (_, stopped) = tokio::join!(signals.cancel_on_signal(app.shutdown_token()), app.wait());
    stopped
}
