//! End-to-end tests: the real app (or the real binary) on a random loopback port, spoken to
//! over HTTP. One module per feature area.

mod auth;
mod backup;
mod binary;
mod brain;
mod company_files;
mod crash_rounds;
mod deals;
mod deals_write;
mod engines;
mod enrich;
mod envelope;
mod export;
mod fuzz_replay;
mod hardening;
mod health;
mod helpers;
mod ingest;
mod invites_cli;
mod keys_cli;
mod mcp;
mod memory;
mod metrics_jobs;
mod openapi;
mod packaging;
mod prometheus;
mod rate_limits;
mod rejections;
mod route_table;
mod rss_bound;
mod status_page;
mod temporal_cluster;
mod tls;
mod workflows;
mod workspace_pages;
mod ws;
