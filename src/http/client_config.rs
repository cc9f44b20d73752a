//! `GET /api/config`: what a browser client needs — mode, version, WebSocket URL, enabled
//! features and only the publishable voice key. Never a secret.

use serde::Serialize;
use warp::{Filter, Rejection, Reply};

use super::session::require;
use crate::domain::Role;
use crate::state::AppState;

#[derive(Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ClientConfig {
    mode: &'static str,
    version: &'static str,
    ws_url: String,
    features: Vec<&'static str>,
    voice: Voice,
}

#[derive(Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Voice {
    publishable_key: Option<String>,
}

/// The features this build serves.
const FEATURES: &[&str] = &["company-data", "enrich", "auth"];

pub fn routes(state: AppState) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    warp::path!("api" / "config")
        .and(warp::get())
        .and(require(state.clone(), Role::Viewer))
        .and(warp::header::optional::<String>("host"))
        .map(move |_principal, host: Option<String>| {
            let config = state.config();
            let scheme = if config.tls.is_some() { "wss" } else { "ws" };
            let host = host.unwrap_or_else(|| config.listen.to_string());
            warp::reply::json(&ClientConfig {
                mode: config.mode.as_str(),
                version: crate::state::VERSION,
                ws_url: format!("{scheme}://{host}/ws"),
                features: FEATURES.to_vec(),
                voice: Voice { publishable_key: config.voice_publishable_key.clone() },
            })
        })
}
