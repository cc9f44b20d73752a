//! The console's stylesheet and script, embedded in the binary and served with an ETag
//! (`If-None-Match` -> 304) and `Cache-Control: no-cache`: a browser revalidates, and an
//! upgraded appliance never serves a stale file.

use std::sync::LazyLock;

use sha2::{Digest, Sha256};
use warp::Filter;
use warp::http::{HeaderMap, HeaderValue, StatusCode, header};
use warp::reply::Response;

use super::{Answer, Page};

pub const CSS_PATH: &str = "/app/assets/console.css";
pub const JS_PATH: &str = "/app/assets/console.js";

/// One stylesheet: the shared rules, then each page's own (one file per page, so pages are
/// written and reviewed apart).
const CSS: &str = concat!(
    include_str!("../../../assets/console/console.css"),
    include_str!("../../../assets/console/pages/chat.css"),
    include_str!("../../../assets/console/pages/workers.css"),
    include_str!("../../../assets/console/pages/memory.css"),
    include_str!("../../../assets/console/pages/metrics.css"),
    include_str!("../../../assets/console/pages/companies.css"),
);
const JS: &str = include_str!("../../../assets/console/console.js");

/// One embedded file: its media type, bytes and strong ETag.
struct Asset {
    media: &'static str,
    body: &'static str,
    etag: String,
}

impl Asset {
    fn new(media: &'static str, body: &'static str) -> Self {
        let digest = Sha256::digest(body.as_bytes());
        Asset { media, body, etag: format!("\"{}\"", hex::encode(&digest[..8])) }
    }

    fn answer(&self, headers: &HeaderMap) -> Response {
        let fresh = headers
            .get(header::IF_NONE_MATCH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.split(',').any(|tag| tag.trim() == self.etag || tag.trim() == "*"));
        let mut res = if fresh {
            let mut res = Response::new(Default::default());
            *res.status_mut() = StatusCode::NOT_MODIFIED;
            res
        } else {
            let mut res = Response::new(self.body.into());
            res.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(self.media));
            res
        };
        let h = res.headers_mut();
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
        if let Ok(etag) = HeaderValue::from_str(&self.etag) {
            h.insert(header::ETAG, etag);
        }
        res
    }
}

static STYLESHEET: LazyLock<Asset> = LazyLock::new(|| Asset::new("text/css; charset=utf-8", CSS));
static SCRIPT: LazyLock<Asset> = LazyLock::new(|| Asset::new("text/javascript; charset=utf-8", JS));

pub fn routes() -> [Page; 2] {
    let css = warp::path!("app" / "assets" / "console.css")
        .and(warp::get().or(warp::head()).unify())
        .and(warp::header::headers_cloned())
        .map(|headers: HeaderMap| Answer::Raw(Box::new(STYLESHEET.answer(&headers))))
        .boxed();
    let js = warp::path!("app" / "assets" / "console.js")
        .and(warp::get().or(warp::head()).unify())
        .and(warp::header::headers_cloned())
        .map(|headers: HeaderMap| Answer::Raw(Box::new(SCRIPT.answer(&headers))))
        .boxed();
    [css, js]
}
