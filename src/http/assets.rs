//! Serving the embedded keyless files: exact-path lookup in the asset table (so no request
//! can name anything outside it), `Accept-Encoding` negotiation (br, gzip, identity), strong
//! per-encoding ETags with `If-None-Match` -> 304, `Cache-Control`, and HEAD. This runs in the
//! accept loop ahead of warp: it is the hottest path of the appliance.

use bytes::Bytes;
use http_body_util::Full;
use hyper::header::{self, HeaderMap, HeaderValue};
use hyper::{Method, Response, StatusCode};

use super::error::ApiError;
use crate::companies::assets::{AssetTable, StaticFile};
use crate::domain::Slug;
use crate::error::{ErrorKind, ServiceError};

pub const CACHE_CONTROL: &str = "public, max-age=3600";

/// True for paths this module answers (the keyless namespace).
pub fn owns(path: &str) -> bool {
    path.starts_with("/company/") || path == DIRECTORY_WITHOUT_SLASH || path == "/llms.txt" || path == "/sitemap.xml"
}

/// The directory page's address typed without its final slash: answered with a redirect to it.
const DIRECTORY_WITHOUT_SLASH: &str = "/company";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Encoding {
    Brotli,
    Gzip,
    Identity,
}

/// Answers a request for a path in the keyless namespace.
pub fn respond(table: &AssetTable, method: &Method, path: &str, headers: &HeaderMap) -> Response<Full<Bytes>> {
    if method != Method::GET && method != Method::HEAD {
        return error(ApiError::MethodNotAllowed("the company files accept GET and HEAD only".into()));
    }
    if path == DIRECTORY_WITHOUT_SLASH {
        let mut res = Response::new(Full::new(Bytes::new()));
        *res.status_mut() = StatusCode::PERMANENT_REDIRECT;
        res.headers_mut().insert(header::LOCATION, HeaderValue::from_static("/company/"));
        return res;
    }
    let Some(file) = table.get(path) else {
        let message = not_found_message(path);
        if is_page(path) && wants_html(headers) {
            return missing_page(message);
        }
        return error(ApiError::NotFound(message.into()));
    };
    let accept = headers.get(header::ACCEPT_ENCODING).and_then(|v| v.to_str().ok()).unwrap_or("");
    let encoding = choose(accept);
    let etag = match encoding {
        Encoding::Brotli => format!("\"{}-br\"", file.hash),
        Encoding::Gzip => format!("\"{}-gz\"", file.hash),
        Encoding::Identity => format!("\"{}\"", file.hash),
    };
    let not_modified = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|inm| inm.split(',').any(|t| t.trim() == "*" || t.trim().trim_start_matches("W/") == etag));
    let mut res = if not_modified {
        let mut res = Response::new(Full::new(Bytes::new()));
        *res.status_mut() = StatusCode::NOT_MODIFIED;
        res
    } else {
        match body(file, encoding) {
            Ok(body) => Response::new(Full::new(body)),
            Err(source) => return error(ApiError::from(Unreadable { file: file.file.clone(), source })),
        }
    };
    let h = res.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(file.content_type));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(CACHE_CONTROL));
    h.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
    if let Ok(v) = HeaderValue::from_str(&etag) {
        h.insert(header::ETAG, v);
    }
    if file.content_type.starts_with("text/html") {
        page_headers(h);
    }
    match encoding {
        Encoding::Brotli => drop(h.insert(header::CONTENT_ENCODING, HeaderValue::from_static("br"))),
        Encoding::Gzip => drop(h.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"))),
        Encoding::Identity => {}
    }
    res
}

/// An embedded file whose brotli bytes do not decode: a broken build, logged, shown as a 500.
#[derive(Debug, thiserror::Error)]
#[error("embedded file {file} does not decode")]
struct Unreadable {
    file: String,
    source: std::io::Error,
}

impl ServiceError for Unreadable {
    fn kind(&self) -> ErrorKind {
        ErrorKind::Internal
    }
}

/// The policy of the public pages: nothing but their own stylesheet loads; no script runs.
const PAGE_CSP: &str = "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

fn page_headers(h: &mut HeaderMap) {
    h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(PAGE_CSP));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
}

/// A company page's or hub's path (`/company/{slug}`, `/company/sector/…`): no file extension.
fn is_page(path: &str) -> bool {
    path.strip_prefix("/company/")
        .is_some_and(|rest| !rest.starts_with("data/") && !rest.rsplit('/').next().unwrap_or_default().contains('.'))
}

/// Whether the request is a person's browser (it asks for HTML).
fn wants_html(headers: &HeaderMap) -> bool {
    headers.get(header::ACCEPT).and_then(|v| v.to_str().ok()).is_some_and(|a| a.contains("text/html"))
}

/// The HTML 404 a browser gets for a missing company page (DESIGN.md's exception for people).
fn missing_page(message: &str) -> Response<Full<Bytes>> {
    let body = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>Not found</title>\
         <link rel=\"stylesheet\" href=\"/company/page.css\"></head><body><main><h1>Not found</h1><p>{message}.</p>\
         <p><a href=\"/company/\">Browse the companies</a></p></main></body></html>"
    );
    let mut res = Response::new(Full::new(Bytes::from(body)));
    *res.status_mut() = StatusCode::NOT_FOUND;
    let h = res.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
    page_headers(h);
    res
}

fn not_found_message(path: &str) -> &'static str {
    let slug = path.strip_prefix("/company/data/").and_then(|rest| rest.strip_suffix(".json"));
    let slug = slug.or_else(|| path.strip_prefix("/company/").filter(|rest| !rest.contains('/') && !rest.is_empty()));
    match slug {
        Some(slug) if Slug::parse(slug).is_ok() => "no company with that slug",
        Some(_) => "not a company slug (lowercase letters, digits and single dashes, at most 80 characters)",
        None => "no such file",
    }
}

/// Picks the best encoding the client accepts: br, then gzip, then identity.
fn choose(accept: &str) -> Encoding {
    let accepts = |name: &str| {
        accept.split(',').any(|part| {
            let mut it = part.split(';');
            let token = it.next().unwrap_or("").trim();
            let q =
                it.find_map(|p| p.trim().strip_prefix("q=").and_then(|q| q.trim().parse::<f32>().ok())).unwrap_or(1.0);
            (token.eq_ignore_ascii_case(name) || token == "*") && q > 0.0
        })
    };
    if accepts("br") {
        Encoding::Brotli
    } else if accepts("gzip") {
        Encoding::Gzip
    } else {
        Encoding::Identity
    }
}

/// The file's bytes in `encoding`: brotli as embedded, gzip and identity made on first use and
/// kept (an error only if the embedded bytes were corrupt).
fn body(file: &StaticFile, encoding: Encoding) -> std::io::Result<Bytes> {
    match encoding {
        Encoding::Brotli => Ok(file.brotli.clone()),
        Encoding::Gzip => file.gzip(),
        Encoding::Identity => file.identity(),
    }
}

fn error(e: ApiError) -> Response<Full<Bytes>> {
    let (status, body) = e.envelope();
    let mut res = Response::new(Full::new(Bytes::from(body)));
    *res.status_mut() = status;
    res.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    if status == StatusCode::METHOD_NOT_ALLOWED {
        res.headers_mut().insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file() -> StaticFile {
        let br = gtms_precompress::brotli(b"{}").unwrap_or_default();
        StaticFile::new("x.json".into(), Bytes::from(br), "abc".into())
    }

    #[test]
    fn encodings_are_negotiated_by_preference_and_q_values() {
        assert_eq!(choose("gzip, deflate, br"), Encoding::Brotli);
        assert_eq!(choose("gzip"), Encoding::Gzip);
        assert_eq!(choose("br;q=0, gzip;q=0.5"), Encoding::Gzip);
        assert_eq!(choose(""), Encoding::Identity);
        assert_eq!(choose("identity"), Encoding::Identity);
        assert_eq!(choose("*"), Encoding::Brotli);
    }

    #[test]
    fn gzip_and_identity_are_made_from_the_brotli_once_and_kept() {
        let f = file();
        let first = body(&f, Encoding::Identity).ok();
        assert_eq!(first.as_deref(), Some(&b"{}"[..]));
        let again = body(&f, Encoding::Identity).ok();
        assert_eq!(again.map(|b| b.as_ptr()), first.map(|b| b.as_ptr()), "the second answer reuses the first's bytes");
        let gz = body(&f, Encoding::Gzip).ok();
        assert_eq!(gz.as_deref(), gtms_precompress::gzip(b"{}").ok().as_deref(), "the bytes ingest's encoder makes");
        let gz_again = body(&f, Encoding::Gzip).ok();
        assert_eq!(gz_again.map(|b| b.as_ptr()), gz.map(|b| b.as_ptr()));
        let broken = StaticFile::new("x.json".into(), Bytes::from_static(b"not brotli"), "abc".into());
        assert!(body(&broken, Encoding::Gzip).is_err());
        assert_eq!(body(&broken, Encoding::Brotli).ok(), Some(Bytes::from_static(b"not brotli")));
    }
}
