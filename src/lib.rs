//! gtms: receipted intelligence on US public companies and the workspace platform of an AI
//! go-to-market team, in one statically linked binary.
//!
//! Map of the crate (arrows point from faces to services to storage and domain):
//! - faces
//!   - `cli`       — clap commands; thin, calls services or the admin channel
//!   - `http`      — warp routes, the JSON body filter, the one error-to-envelope mapping, the live `/status` page, the
//!     web console under `/app/` (`http/console`: maud pages, sign-in, deals, approvals), and
//!     `api_doc`: the route table behind `/api/openapi.json`, the metric labels and 405s
//!   - `mcp`       — the MCP tool server at `/mcp` (rmcp): tool registry, toolsets, guide page
//!   - `admin`     — the Unix-socket channel that lets CLI commands reach a running server
//! - wiring
//!   - `app`       — builds the state, binds, spawns tasks, serves until shutdown
//!   - `server`    — the hyper-util accept loop (TCP or rustls), request ids, request logs
//!   - `tls`       — rustls server configuration from PEM files
//!   - `shutdown`  — SIGINT/SIGTERM to one cancellation token
//!   - `config`    — defaults, file, `GTMS_*` env, flags; secrets redacted
//!   - `telemetry` — tracing subscriber (human or JSON)
//!   - `state`     — `AppState` shared by the faces, and the health report
//! - services
//!   - `companies` — receipted company model: seed, ingest, assets, directory, enrich (`crates/companies`, re-exported)
//!   - `auth`      — argon2id secrets (bounded, pooled memory), the failed-attempt guard, `gtms_` API keys (cache, usage), invites and JWT sessions
//!   - `deals`     — the deal pipeline: lists, detail, summary, stage rules
//!   - `memory`    — hierarchical memory: scopes, versions, archive, search, tree, health, compression
//!   - `brain`     — chat per user, context assembly, model providers (demo, OpenAI-compatible, Anthropic), token ledger
//!   - `metrics`   — the four metric views and their rollups
//!   - `workflows` — workers and durable workflows: definitions, the type catalog, activities, the engine trait with the demo engine and the temporal engine (mTLS, two task queues, `gtms worker`), approvals, coordinator runs
//!   - `notify`    — team-chat notifications: the durable outbox and the Slack-compatible webhook delivery
//!   - `voice`     — voice-call analysis behind a trait (the demo provider over seeded transcripts)
//!   - `jobs`      — the in-process scheduler and its jobs, each with `run_once`
//!   - `demo`      — the demo workspace (workers, deals, accounts, history) and its generator
//!   - `limits`    — fixed-window rate limiting (windows saved in redb across restarts) and the one injected `Clock`
//!   - `backup`    — verified online/offline backups, offline restore, scheduled backups with retention
//!   - `audit`, `budgets` — the hash-chained audit log of admin actions; token budgets and their spend
//! - foundations (the `gtms-foundations` crate, re-exported here under the same names)
//!   - `store`     — the redb file: tables, versioned bincode records, one file per entity, the memory word index
//!   - `domain`    — newtypes and rules (receipts, slugs, tickers, roles, stages); no deps on us
//!   - `error`     — `ErrorKind` and `ServiceError`: the one error vocabulary faces map once
//!   - `events`    — the in-process broadcast bus behind `/ws`
//!   - `clock`     — the one injected clock
//!   - `prometheus` — the process's Prometheus series (`metrics` facade), rendered by `/metrics`

pub mod admin;
pub mod app;
pub mod audit;
pub mod auth;
pub mod backup;
pub mod brain;
pub mod budgets;
pub mod cli;
pub mod config;
pub mod deals;
pub mod demo;
pub mod http;
pub mod jobs;
pub mod limits;
pub mod mcp;
pub mod memory;
pub mod metrics;
pub mod notify;
pub mod prometheus;
pub mod server;
pub mod shutdown;
pub mod state;
pub mod telemetry;
pub mod tls;
pub mod voice;
pub mod workflows;

pub use gtms_companies as companies;
pub use gtms_foundations::{clock, domain, error, events, store};
