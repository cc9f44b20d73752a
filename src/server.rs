//! The accept loop: one hyper-util connection builder (HTTP/1.1 and HTTP/2, with upgrades
//! for `/ws`) over plain TCP or rustls, serving the warp routes. Every request gets an
//! `X-Request-Id`, its peer address as an extension, and a log line. On shutdown the loop
//! stops accepting and waits (bounded) for in-flight connections to finish. `/mcp`, `/mcp/...`
//! and the protected-resource metadata go to the MCP face (`mcp_route`), beside warp, and so
//! do the keyless files (`assets`) and `/v1/enrich`. A method
//! the route table does not list for a known path is refused here (405 with `Allow`), and every
//! answer is counted for `/metrics` by its route pattern (`observe`).
//!
//! Hygiene (see `conn` and `docs/decisions.md`): a connection must deliver its first request
//! head within the header timeout, later heads within the idle timeout, and each body within
//! the body timeout; open connections are capped (with a reserve that answers only health);
//! failed accepts back off; HTTP/2 streams and header lists are bounded. `HEAD` is served as
//! `GET` everywhere (hyper drops the body and keeps the headers).

mod conn;
mod mcp_route;

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::BodyExt;
use http_body_util::combinators::BoxBody;
use hyper::Method;
use hyper::body::Incoming;
use hyper::{Request, Response};
use hyper_util::rt::TokioTimer;
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tokio_rustls::TlsAcceptor;
use tokio_util::sync::CancellationToken;
use tower::{Service, ServiceExt};
use tracing::Instrument;

pub use conn::TimedBody;
use conn::{AcceptBackoff, ConnectionGate, Mode};

use crate::auth::Channel;
use crate::config::ConnectionSettings;
use crate::http::error::ApiError;
use crate::http::filters::{ClientIp, PeerAddr};
use crate::http::{api_doc, assets, enrich, rate_limit, session};
use crate::mcp::Mcp;
use crate::state::AppState;

pub type BoxError = Box<dyn std::error::Error + Send + Sync>;
pub type HttpResponse = Response<BoxBody<Bytes, BoxError>>;

/// How long in-flight requests get to finish after the shutdown signal.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(30);
/// HTTP/2: streams one connection may have open at once, and the largest header list.
const H2_MAX_STREAMS: u32 = 100;
const MAX_HEADER_LIST: u32 = 16 * 1024;

/// The body type every request reaches the services with.
pub type RequestBody = TimedBody<Incoming>;

/// Dispatches one request to the right service. Cloned per connection.
#[derive(Clone)]
pub struct Router<W> {
    warp: W,
    state: AppState,
    mcp: Arc<Mcp>,
}

impl<W> Router<W>
where
    W: Service<Request<RequestBody>, Response = warp::reply::Response, Error = Infallible> + Clone + Send + 'static,
    W::Future: Send,
{
    pub fn new(warp: W, state: AppState, mcp: Arc<Mcp>) -> Self {
        Self { warp, state, mcp }
    }

    /// One request: a span (`request`) carrying its id, method, route pattern, principal,
    /// status and latency around everything that serves it, so every line logged inside
    /// names the request; then the answer's `X-Request-Id`, the metrics and one log line.
    async fn call(self, req: Request<Incoming>, peer: SocketAddr, mode: Mode, body_timeout: Duration) -> HttpResponse {
        let started = Instant::now();
        let request_id = uuid::Uuid::new_v4().to_string();
        let (method, path) = (req.method().clone(), req.uri().path().to_owned());
        let matched = api_doc::classify(method.as_str(), &path);
        let route = matched.label;
        let span = tracing::info_span!(
            target: "gtms::http",
            "request",
            request_id = %request_id,
            method = %method,
            route,
            principal = tracing::field::Empty,
            status = tracing::field::Empty,
            micros = tracing::field::Empty,
        );
        let serve = async {
            tracing::debug!(target: "gtms::http", path = %path, peer = %peer, "request received");
            let mut req = req.map(|b| TimedBody::new(b, body_timeout));
            let mut res = if mode == Mode::Reserve && path != "/api/health" {
                let mut res =
                    boxed(ApiError::Unavailable("the server is at its connection limit".into()).to_response());
                res.headers_mut().insert(hyper::header::RETRY_AFTER, hyper::header::HeaderValue::from(1));
                res.headers_mut().insert(hyper::header::CONNECTION, hyper::header::HeaderValue::from_static("close"));
                res
            } else {
                // HEAD is answered as GET; hyper sends the headers and drops the body. `/mcp` is
                // left alone (its GET opens an event stream).
                if method == Method::HEAD && path != "/mcp" {
                    *req.method_mut() = Method::GET;
                }
                self.route(req, &path, matched.refused, peer).await
            };
            if let Ok(v) = request_id.parse() {
                res.headers_mut().insert("x-request-id", v);
            }
            observe(&mut res, &method, &path, route, started);
            let (status, micros) = (res.status().as_u16(), started.elapsed().as_micros() as u64);
            let span = tracing::Span::current();
            span.record("status", status);
            span.record("micros", micros);
            tracing::info!(target: "gtms::http", path = %path, status, micros, peer = %peer, "request");
            res
        };
        serve.instrument(span).await
    }

    /// The rate limits, then the owning face.
    async fn route(self, mut req: Request<RequestBody>, path: &str, refused: bool, peer: SocketAddr) -> HttpResponse {
        let client = rate_limit::client_ip(peer, req.headers(), &self.state.config().trusted_proxies);
        // The one verification of a workspace token per request.
        let caller = session::verified_up_front(path)
            .then(|| session::principal_of(&self.state, req.headers()).ok().map(|p| p.via(Channel::Api, Some(client))));
        if let Some(Some(principal)) = &caller {
            tracing::Span::current().record("principal", principal.sub.as_str());
        }
        let limited = rate_limit::check(&self.state, path, caller.as_ref().and_then(Option::as_ref), client);
        let mut res = if let Some((decision, now)) = limited.filter(|(d, _)| !d.allowed) {
            boxed(ApiError::RateLimited { retry_after: decision.retry_after(now) }.to_response())
        } else if let Some(allow) = refused.then(|| api_doc::allow(path)).flatten() {
            let error = ApiError::MethodNotAllowed(format!("{path} answers {allow}"));
            let mut res = boxed(error.to_response());
            if let Ok(allow) = allow.parse() {
                res.headers_mut().insert(hyper::header::ALLOW, allow);
            }
            res
        } else if Mcp::owns(path) {
            mcp_route::respond(&self.mcp, req, client).await
        } else if assets::owns(path) {
            assets::respond(self.state.assets(), req.method(), path, req.headers())
                .map(|b| b.map_err(|never| match never {}).boxed())
        } else if enrich::owns(path) {
            boxed(enrich::respond(&self.state, req.headers(), req.uri().query(), client).await)
        } else {
            req.extensions_mut().insert(PeerAddr(peer));
            req.extensions_mut().insert(ClientIp(client));
            if let Some(caller) = caller {
                req.extensions_mut().insert(session::Authenticated(caller));
            }
            match self.warp.oneshot(req).await {
                Ok(res) => boxed(res),
                Err(never) => match never {},
            }
        };
        if let Some((decision, _)) = &limited {
            rate_limit::headers(res.headers_mut(), decision);
        }
        res
    }
}

/// The one place every answer passes: a 405 gets the `Allow` of its route, and the request is
/// counted by route pattern, method and status, with its latency.
fn observe(res: &mut HttpResponse, method: &Method, path: &str, route: &'static str, started: Instant) {
    if res.status() == hyper::StatusCode::METHOD_NOT_ALLOWED
        && !res.headers().contains_key(hyper::header::ALLOW)
        && let Some(allow) = api_doc::allow(path).and_then(|a| a.parse().ok())
    {
        res.headers_mut().insert(hyper::header::ALLOW, allow);
    }
    crate::prometheus::http_request(route, method.as_str(), res.status().as_u16(), started.elapsed());
}

fn boxed(res: warp::reply::Response) -> HttpResponse {
    res.map(|b| b.map_err(|e| Box::new(e) as BoxError).boxed())
}

/// The connection builder: HTTP/1.1 with header/idle timeouts, HTTP/2 with stream and
/// header-list limits.
fn builder(settings: &ConnectionSettings) -> auto::Builder<TokioExecutor> {
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        // hyper starts this timer whenever it waits for a request head, so on a keep-alive
        // connection it is the idle timeout; the first head has the header timeout (below).
        .header_read_timeout(settings.idle_timeout.max(settings.header_timeout))
        .max_buf_size(64 * 1024);
    builder
        .http2()
        .timer(TokioTimer::new())
        .max_concurrent_streams(H2_MAX_STREAMS)
        .max_header_list_size(MAX_HEADER_LIST)
        .max_pending_accept_reset_streams(20)
        .keep_alive_interval(settings.idle_timeout)
        .keep_alive_timeout(settings.header_timeout);
    builder
}

/// Serves `listener` until `shutdown` is cancelled, then drains in-flight connections.
pub async fn serve<W>(listener: TcpListener, tls: Option<TlsAcceptor>, router: Router<W>, shutdown: CancellationToken)
where
    W: Service<Request<RequestBody>, Response = warp::reply::Response, Error = Infallible>
        + Clone
        + Send
        + Sync
        + 'static,
    W::Future: Send,
{
    let settings = router.state.config().connections;
    let builder = Arc::new(builder(&settings));
    let gate = ConnectionGate::new(settings.max_connections);
    let graceful = GracefulShutdown::new();
    let mut backoff = AcceptBackoff::default();
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    let wait = backoff.failed();
                    tracing::warn!(error = %e, retry_in_ms = wait.as_millis() as u64, "accept failed");
                    tokio::select! {
                        _ = tokio::time::sleep(wait) => continue,
                        _ = shutdown.cancelled() => break,
                    }
                }
            },
            _ = shutdown.cancelled() => break,
        };
        backoff.succeeded();
        // Past the reserve: closing at once frees the descriptor.
        let Some(slot) = gate.admit() else { continue };
        let _ = stream.set_nodelay(true);
        let (builder, router, tls, watcher) = (Arc::clone(&builder), router.clone(), tls.clone(), graceful.watcher());
        tokio::spawn(async move {
            let first_head = Arc::new(tokio::sync::Notify::new());
            let signal = Arc::clone(&first_head);
            let mode = slot.mode;
            let service = hyper::service::service_fn(move |req| {
                signal.notify_one();
                let router = router.clone();
                async move { Ok::<_, Infallible>(router.call(req, peer, mode, settings.body_timeout).await) }
            });
            let serve = async {
                match tls {
                    None => {
                        watcher
                            .watch(builder.serve_connection_with_upgrades(TokioIo::new(stream), service).into_owned())
                            .await
                    }
                    Some(acceptor) => match acceptor.accept(stream).await {
                        Ok(tls_stream) => {
                            let conn = builder.serve_connection_with_upgrades(TokioIo::new(tls_stream), service);
                            watcher.watch(conn.into_owned()).await
                        }
                        Err(e) => Err(Box::new(e) as BoxError),
                    },
                }
            };
            let deadline = async {
                // The TLS handshake and the first request head share the header timeout.
                if tokio::time::timeout(settings.header_timeout, first_head.notified()).await.is_err() {
                    return;
                }
                std::future::pending::<()>().await
            };
            tokio::select! {
                result = serve => if let Err(e) = result {
                    tracing::debug!(%peer, error = %e, "connection ended with an error");
                },
                _ = deadline => tracing::debug!(%peer, "no request head within the header timeout; closed"),
            }
            drop(slot);
        });
    }
    drop(listener);
    if tokio::time::timeout(DRAIN_TIMEOUT, graceful.shutdown()).await.is_err() {
        tracing::warn!("some connections did not finish within {DRAIN_TIMEOUT:?}; closing them");
    }
}
