//! `AppState`: what every face (HTTP, MCP, the admin channel) shares — the configuration, the
//! store, the company directory, credentials, the rate limiters and the start time — and the
//! health report they all give. Built once by `app`; cheap to clone.

use std::sync::Arc;
use std::time::Instant;

use serde::Serialize;

use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::auth::AuthError;
use crate::auth::guard::AttemptGuard;
use crate::auth::keys::ApiKeys;
use crate::auth::secrets::HashLimits;
use crate::auth::secrets::Hasher;
use crate::auth::sessions::Sessions;
use crate::clock::SharedClock;
use crate::companies::assets::AssetTable;
use crate::companies::directory::{Directory, DirectoryError};
use crate::config::{Config, Mode};
use crate::limits::{FixedWindow, NamedLimiter};
use crate::store::Store;

#[derive(Debug, thiserror::Error)]
pub enum StateError {
    #[error(transparent)]
    Directory(#[from] DirectoryError),
    #[error("loading credentials: {0}")]
    Auth(#[from] AuthError),
    #[error("language model: {0}")]
    Llm(#[from] crate::brain::ModelError),
    #[error("workflow engine: {0}")]
    Engine(#[from] crate::workflows::EngineError),
}

pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The embedded company data every face reads: the keyless files and the lookup over them.
pub struct CompanyData {
    pub assets: Arc<AssetTable>,
    pub directory: Arc<Directory>,
}

impl CompanyData {
    /// Indexes the embedded files and builds the lookup: tens of milliseconds, made from the
    /// binary alone, so the server makes it on the blocking pool while its store opens.
    pub fn embedded() -> Result<Self, DirectoryError> {
        let assets = Arc::new(AssetTable::embedded());
        let directory = Arc::new(Directory::over_embedded(&assets)?);
        Ok(Self { assets, directory })
    }
}

#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

struct Inner {
    config: Config,
    store: Store,
    assets: Arc<AssetTable>,
    directory: Arc<Directory>,
    api_keys: Arc<ApiKeys>,
    sessions: Sessions,
    enrich_limiter: Arc<FixedWindow>,
    auth_limiter: Arc<FixedWindow>,
    api_limiter: Arc<FixedWindow>,
    hasher: Hasher,
    llm: Arc<crate::brain::Llm>,
    /// The workflow service; offline commands (`AppState::new`) run none.
    workflows: Option<crate::workflows::Workflows>,
    started: Instant,
}

/// The `GET /api/health` shape.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct Health {
    pub status: String,
    pub temporal: String,
    pub mode: String,
    /// Whole seconds since the server started.
    pub uptime: u64,
    pub version: String,
}

impl AppState {
    /// Builds the shared state: company lookups from the embedded data, credentials from the store.
    /// The state of an offline command: no workflow engine runs. The limiters and session
    /// tokens read the store's clock.
    pub async fn new(config: Config, store: Store) -> Result<Self, StateError> {
        Self::build(config, store, CompanyData::embedded()?, None).await
    }

    /// The server's state: built in dependency order — company data, model router, then the
    /// workflow engine of the configured mode over them (its tasks in `tasks`, stopping with
    /// `shutdown`), then the state holding all of it.
    pub async fn with_engine(
        config: Config,
        store: Store,
        companies: CompanyData,
        tasks: &TaskTracker,
        shutdown: CancellationToken,
    ) -> Result<Self, StateError> {
        Self::build(config, store, companies, Some((tasks, shutdown))).await
    }

    async fn build(
        config: Config,
        store: Store,
        companies: CompanyData,
        engine: Option<(&TaskTracker, CancellationToken)>,
    ) -> Result<Self, StateError> {
        let clock = Arc::clone(store.clock());
        let CompanyData { assets, directory } = companies;
        let limits = HashLimits { concurrency: config.argon2_concurrency, ..HashLimits::default() };
        let hasher = Hasher::with_limits(config.hash_cost, limits);
        let guard = || AttemptGuard::new(config.failed_auth, Arc::clone(&clock));
        let api_keys = Arc::new(ApiKeys::new(store.clone(), hasher.clone(), guard()));
        let sessions = Sessions::load(store.clone(), hasher.clone(), config.jwt_secret.as_ref(), guard()).await?;
        let limits = &config.rate_limits;
        let enrich_limiter = Arc::new(FixedWindow::new(config.enrich_rate_limit, 60));
        let auth_limiter = Arc::new(FixedWindow::new(limits.auth, limits.window_secs));
        let api_limiter = Arc::new(FixedWindow::new(limits.api, limits.window_secs));
        let llm = Arc::new(crate::brain::Llm::from_settings(&config.llm, Arc::clone(&clock))?);
        let workflows = match engine {
            Some((tasks, shutdown)) => {
                let parts =
                    crate::workflows::EngineParts { config: &config, store: &store, llm: &llm, directory: &directory };
                Some(crate::workflows::start_engine(parts, tasks, shutdown).await?)
            }
            None => None,
        };
        let inner = Inner {
            llm,
            config,
            store,
            assets,
            directory,
            api_keys,
            sessions,
            enrich_limiter,
            auth_limiter,
            api_limiter,
            hasher,
            workflows,
            started: Instant::now(),
        };
        Ok(Self { inner: Arc::new(inner) })
    }

    /// Invites and workspace tokens.
    pub fn sessions(&self) -> &Sessions {
        &self.inner.sessions
    }

    /// `/auth/*` requests per client IP per window.
    pub fn auth_limiter(&self) -> &FixedWindow {
        &self.inner.auth_limiter
    }

    /// `/api/*` requests per user (per IP before login) per window.
    pub fn api_limiter(&self) -> &FixedWindow {
        &self.inner.api_limiter
    }

    /// The clock every limiter reads: the store's.
    pub fn clock(&self) -> &SharedClock {
        self.inner.store.clock()
    }

    /// The process's one argon2 engine (its run counter is evidence for tests).
    pub fn hasher(&self) -> &Hasher {
        &self.inner.hasher
    }

    /// Every tracked company, for lookups.
    pub fn directory(&self) -> &Arc<Directory> {
        &self.inner.directory
    }

    pub fn api_keys(&self) -> &Arc<ApiKeys> {
        &self.inner.api_keys
    }

    /// Every rate limiter with the name its windows are kept under.
    pub fn limiters(&self) -> Vec<NamedLimiter> {
        let named = |name, limiter: &Arc<FixedWindow>| NamedLimiter { name, limiter: Arc::clone(limiter) };
        vec![
            named("enrich", &self.inner.enrich_limiter),
            named("auth", &self.inner.auth_limiter),
            named("api", &self.inner.api_limiter),
        ]
    }

    /// Per-key requests-per-minute limiter of `/v1/enrich`.
    pub fn enrich_limiter(&self) -> &FixedWindow {
        &self.inner.enrich_limiter
    }

    pub fn config(&self) -> &Config {
        &self.inner.config
    }

    pub fn store(&self) -> &Store {
        &self.inner.store
    }

    /// The embedded keyless company files.
    pub fn assets(&self) -> &Arc<AssetTable> {
        &self.inner.assets
    }

    /// The language-model provider chosen at start-up, routed by task type.
    pub fn llm(&self) -> &Arc<crate::brain::Llm> {
        &self.inner.llm
    }

    /// The workflow service; `Unavailable` when no engine runs in this process.
    pub fn workflows(&self) -> Result<&crate::workflows::Workflows, crate::workflows::EngineError> {
        self.inner
            .workflows
            .as_ref()
            .ok_or_else(|| crate::workflows::EngineError::Unavailable("no workflow engine runs in this process".into()))
    }

    /// The workspace for the Brain's context: the workers, live workflows, what waits for
    /// approval, the workflows of the last day, the deals and the pipeline (each left empty, with
    /// a warning, when it cannot be read: the Brain still answers).
    pub async fn brain_workspace(&self, question: &str) -> crate::brain::context::Workspace {
        use crate::brain::context::{Pipeline, RANKED_DEALS, Workspace, named};
        const DAY_MS: i64 = 24 * 60 * 60 * 1000;
        let mut workspace = Workspace::default();
        if let Ok(w) = self.workflows() {
            match w.brain_view(self.store().now_ms() - DAY_MS).await {
                Ok(view) => {
                    workspace.workflows = view.active;
                    workspace.approvals = view.approvals;
                    workspace.workers = view.workers;
                    workspace.recent_workflows = view.recent;
                }
                Err(e) => tracing::warn!(error = %e, "could not read the workflows for the Brain"),
            }
        }
        let store = self.store();
        let summary = crate::deals::summary(store);
        let stages = crate::domain::Stage::ALL.map(|stage| (stage, summary.by_stage.get(stage)));
        workspace.pipeline = Some(Pipeline {
            view: crate::metrics::PipelineView::from_tallies(&store.deal_tallies()),
            stages: stages.into_iter().map(|(stage, b)| (stage, b.value, b.count)).collect(),
        });
        match (store.deals_by_id(named(question, store)).await, store.open_deals_ranked(RANKED_DEALS).await) {
            (Ok(named), Ok(ranked)) => (workspace.named_deals, workspace.ranked_deals) = (named, ranked),
            (Err(e), _) | (_, Err(e)) => tracing::warn!(error = %e, "could not read the deals for the Brain"),
        }
        workspace
    }

    /// The event bus behind `/ws`.
    pub fn events(&self) -> &crate::events::Events {
        self.inner.store.events()
    }

    pub fn uptime_secs(&self) -> u64 {
        self.inner.started.elapsed().as_secs()
    }

    pub fn health(&self) -> Health {
        let temporal = match (self.inner.workflows.as_ref(), self.inner.config.mode) {
            (Some(w), _) => w.engine().connection(),
            (None, Mode::Demo) => "disabled",
            (None, Mode::Temporal) => "disconnected",
        };
        Health {
            status: "healthy".into(),
            temporal: temporal.into(),
            mode: self.inner.config.mode.as_str().into(),
            uptime: self.uptime_secs(),
            version: VERSION.into(),
        }
    }
}
