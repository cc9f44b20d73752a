//! `/ws`: live events. The upgrade is authenticated like any `/api` route — `Authorization:
//! Bearer`, the session cookie, or `?token=` for browsers that cannot set headers — and is
//! refused with the 401 envelope without one; an authenticated request that is not a WebSocket
//! upgrade (no `Connection: upgrade`, `Upgrade: websocket`, `Sec-WebSocket-Version: 13` and
//! `Sec-WebSocket-Key`, or a connection that cannot be upgraded) is a 400. Each connection subscribes to the event bus and
//! first receives `{type:"connected"}`; then every event as one JSON text message. A ping
//! goes out every `PING_SECS`; a client that stops reading (a send blocked for `SEND_TIMEOUT`)
//! or falls `events::CAPACITY` messages behind is closed with code 1013 ("try again later")
//! instead of being buffered without bound.

use std::collections::HashMap;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use tokio::sync::broadcast::error::RecvError;
use warp::filters::ws::{Message, WebSocket, Ws};
use warp::http::HeaderMap;
use warp::{Filter, Rejection, Reply};

use super::error::ApiError;
use super::session::{Authenticated, caller, principal_of};
use crate::auth::Principal;
use crate::events::Events;
use crate::state::AppState;

const PING_SECS: u64 = 25;
const SEND_TIMEOUT: Duration = Duration::from_secs(10);
/// RFC 6455 "try again later": sent to a client too slow to keep up.
pub const CLOSE_TOO_SLOW: u16 = 1013;

/// The caller: `?token=` when no `Authorization` header is sent (browsers cannot set one on
/// an upgrade), else the accept loop's verdict on the headers.
fn authenticate(
    state: &AppState,
    authenticated: Option<Authenticated>,
    headers: &HeaderMap,
    query: &HashMap<String, String>,
) -> Result<Principal, ApiError> {
    match query.get("token") {
        Some(token) if !headers.contains_key("authorization") => {
            let mut with_token = HeaderMap::new();
            let value =
                format!("Bearer {token}").parse().map_err(|_| ApiError::Unauthorized("invalid token".into()))?;
            with_token.insert("authorization", value);
            principal_of(state, &with_token)
        }
        _ => caller(state, authenticated, headers),
    }
}

pub fn routes(state: AppState) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    warp::path!("ws")
        .and(warp::get())
        .and(warp::ext::optional::<Authenticated>())
        .and(warp::header::headers_cloned())
        .and(warp::query::<HashMap<String, String>>())
        .and_then(move |authenticated: Option<Authenticated>, headers: HeaderMap, query: HashMap<String, String>| {
            let state = state.clone();
            async move {
                let principal = authenticate(&state, authenticated, &headers, &query).map_err(warp::reject::custom)?;
                Ok::<_, Rejection>((principal, state.events().clone()))
            }
        })
        .untuple_one()
        .and(upgrade())
        .map(|principal: Principal, events: Events, ws: Ws| {
            ws.on_upgrade(move |socket| serve(socket, principal, events))
        })
}

/// What the credentials check lets through must be an upgrade request: warp's own refusals
/// (a missing header, or its private "missing connection upgrade") become one 400.
fn upgrade() -> impl Filter<Extract = (Ws,), Error = Rejection> + Clone {
    warp::ws().or_else(|_| async {
        Err::<(Ws,), _>(warp::reject::custom(ApiError::BadRequest("this route needs a WebSocket upgrade".into())))
    })
}

async fn send(tx: &mut futures_util::stream::SplitSink<WebSocket, Message>, message: Message) -> bool {
    matches!(tokio::time::timeout(SEND_TIMEOUT, tx.send(message)).await, Ok(Ok(())))
}

async fn serve(socket: WebSocket, principal: Principal, events: Events) {
    let mut rx = events.subscribe();
    let (mut tx, mut incoming) = socket.split();
    let hello = json!({ "type": "connected", "at": events.clock().utc().to_rfc3339(), "data": { "role": principal.role.as_str() } });
    if !send(&mut tx, Message::text(hello.to_string())).await {
        return;
    }
    let mut ping = tokio::time::interval(Duration::from_secs(PING_SECS));
    ping.tick().await;
    loop {
        tokio::select! {
            event = rx.recv() => match event {
                Ok(message) => {
                    if !send(&mut tx, Message::text(message.as_ref())).await {
                        break;
                    }
                }
                Err(RecvError::Lagged(missed)) => {
                    tracing::info!(missed, "closing a /ws client that fell behind");
                    let _ = send(&mut tx, Message::close_with(CLOSE_TOO_SLOW, "too slow to keep up; reconnect")).await;
                    break;
                }
                Err(RecvError::Closed) => break,
            },
            frame = incoming.next() => match frame {
                Some(Ok(m)) if m.is_close() => break,
                Some(Ok(_)) => {}
                Some(Err(_)) | None => break,
            },
            _ = ping.tick() => {
                if !send(&mut tx, Message::ping(Vec::new())).await {
                    break;
                }
            }
        }
    }
    // Leave the bus first; a client that stopped reading must not hold the close either.
    drop(rx);
    let _ = tokio::time::timeout(SEND_TIMEOUT, tx.close()).await;
}
