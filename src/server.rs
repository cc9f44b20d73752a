//! The accept loop: one hyper-util connection builder (HTTP/1.1 and HTTP/2, with upgrades
//! for `/ws`) over plain TCP or rustls, serving the warp routes. Every request gets an
//! `X-Request-Id`, its peer address as an extension, and a log line. On shutdown the loop
//! stops accepting and waits (bounded) for in-flight connections to finish. `/mcp`, `/mcp/...`
//! and the protected-resource metadata go to the MCP face (`mcp_route`), beside warp.

mod mcp_route;

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::BodyExt;
use http_body_util::combinators::BoxBody;
use hyper::body::Incoming;
use hyper::{Request, Response};
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tokio_rustls::TlsAcceptor;
use tokio_util::sync::CancellationToken;
use tower::{Service, ServiceExt};

use crate::http::error::ApiError;
use crate::http::filters::PeerAddr;
use crate::http::{assets, rate_limit};
use crate::mcp::Mcp;
use crate::state::AppState;

pub type BoxError = Box<dyn std::error::Error + Send + Sync>;
pub type HttpResponse = Response<BoxBody<Bytes, BoxError>>;

/// How long in-flight requests get to finish after the shutdown signal.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(30);
const TLS_HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// Dispatches one request to the right service. Cloned per connection.
#[derive(Clone)]
pub struct Router<W> {
    warp: W,
    state: AppState,
    mcp: Arc<Mcp>,
}

impl<W> Router<W>
where
    W: Service<Request<Incoming>, Response = warp::reply::Response, Error = Infallible> + Clone + Send + 'static,
    W::Future: Send,
{
    pub fn new(warp: W, state: AppState, mcp: Arc<Mcp>) -> Self {
        Self { warp, state, mcp }
    }

    async fn call(self, mut req: Request<Incoming>, peer: SocketAddr) -> HttpResponse {
        let started = Instant::now();
        let request_id = uuid::Uuid::new_v4().to_string();
        let (method, path) = (req.method().clone(), req.uri().path().to_owned());
        tracing::debug!(target: "gtms::http", %method, path = %path, peer = %peer, "request received");
        let limited = rate_limit::check(&self.state, &path, req.headers(), peer);
        let mut res = if let Some((decision, now)) = limited.filter(|(d, _)| !d.allowed) {
            let res = ApiError::RateLimited { retry_after: decision.retry_after(now) }.to_response();
            res.map(|b| b.map_err(|e| Box::new(e) as BoxError).boxed())
        } else if Mcp::owns(&path) {
            mcp_route::respond(&self.mcp, req).await
        } else if assets::owns(&path) {
            assets::respond(self.state.assets(), &method, &path, req.headers())
                .map(|b| b.map_err(|never| match never {}).boxed())
        } else {
            req.extensions_mut().insert(PeerAddr(peer));
            match self.warp.oneshot(req).await {
                Ok(res) => res.map(|b| b.map_err(|e| Box::new(e) as BoxError).boxed()),
                Err(never) => match never {},
            }
        };
        if let Some((decision, _)) = &limited {
            rate_limit::headers(res.headers_mut(), decision);
        }
        if let Ok(v) = request_id.parse() {
            res.headers_mut().insert("x-request-id", v);
        }
        tracing::info!(
            target: "gtms::http",
            %method,
            path = %path,
            status = res.status().as_u16(),
            micros = started.elapsed().as_micros() as u64,
            peer = %peer,
            request_id = %request_id,
            "request"
        );
        res
    }
}

/// Serves `listener` until `shutdown` is cancelled, then drains in-flight connections.
pub async fn serve<W>(listener: TcpListener, tls: Option<TlsAcceptor>, router: Router<W>, shutdown: CancellationToken)
where
    W: Service<Request<Incoming>, Response = warp::reply::Response, Error = Infallible> + Clone + Send + Sync + 'static,
    W::Future: Send,
{
    let builder = Arc::new(auto::Builder::new(TokioExecutor::new()));
    let graceful = GracefulShutdown::new();
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = shutdown.cancelled() => break,
        };
        let _ = stream.set_nodelay(true);
        let (builder, router, tls, watcher) = (Arc::clone(&builder), router.clone(), tls.clone(), graceful.watcher());
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |req| {
                let router = router.clone();
                async move { Ok::<_, Infallible>(router.call(req, peer).await) }
            });
            let result = match tls {
                None => {
                    watcher
                        .watch(builder.serve_connection_with_upgrades(TokioIo::new(stream), service).into_owned())
                        .await
                }
                Some(acceptor) => match tokio::time::timeout(TLS_HANDSHAKE_TIMEOUT, acceptor.accept(stream)).await {
                    Ok(Ok(tls_stream)) => {
                        watcher
                            .watch(
                                builder.serve_connection_with_upgrades(TokioIo::new(tls_stream), service).into_owned(),
                            )
                            .await
                    }
                    Ok(Err(e)) => {
                        return tracing::debug!(%peer, error = %e, "TLS handshake failed");
                    }
                    Err(_) => return tracing::debug!(%peer, "TLS handshake timed out"),
                },
            };
            if let Err(e) = result {
                tracing::debug!(%peer, error = %e, "connection ended with an error");
            }
        });
    }
    drop(listener);
    if tokio::time::timeout(DRAIN_TIMEOUT, graceful.shutdown()).await.is_err() {
        tracing::warn!("some connections did not finish within {DRAIN_TIMEOUT:?}; closing them");
    }
}
