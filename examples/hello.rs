//! The benchmark yardstick: the smallest hyper server that answers every request with a
//! fixed JSON body. `make bench` runs it beside gtms so figures come with a ceiling.

use std::convert::Infallible;

use bytes::Bytes;
use http_body_util::Full;
use hyper::Response;
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use tokio::net::TcpListener;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let addr = std::env::args().nth(1).unwrap_or_else(|| "127.0.0.1:3100".into());
    let listener = TcpListener::bind(&addr).await?;
    println!("hello yardstick on http://{}", listener.local_addr()?);
    loop {
        let (stream, _) = listener.accept().await?;
        let _ = stream.set_nodelay(true);
        tokio::spawn(async move {
            let service = hyper::service::service_fn(|_req| async {
                let body = Bytes::from_static(br#"{"status":"healthy"}"#);
                Ok::<_, Infallible>(
                    Response::builder()
                        .header("content-type", "application/json")
                        .body(Full::new(body))
                        .unwrap_or_default(),
                )
            });
            let _ = auto::Builder::new(TokioExecutor::new()).serve_connection(TokioIo::new(stream), service).await;
        });
    }
}
