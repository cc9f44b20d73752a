//! Reusable request filters: the JSON body (content type, 64 KiB cap, parse errors with
//! their position), a text body of another media type with its own cap (the CSV import), and the peer and client addresses the accept loop attaches to every request.

use std::net::{IpAddr, SocketAddr};

use bytes::{Buf, BytesMut};
use futures_util::StreamExt;
use serde::de::DeserializeOwned;
use warp::{Filter, Rejection};

use super::error::{ApiError, BODY_LIMIT};

/// The TCP peer, as inserted by the accept loop (warp's own `remote()` is `None` there).
#[derive(Debug, Clone, Copy)]
pub struct PeerAddr(pub SocketAddr);

pub fn peer_addr() -> impl Filter<Extract = (Option<SocketAddr>,), Error = std::convert::Infallible> + Clone {
    warp::ext::optional::<PeerAddr>().map(|p: Option<PeerAddr>| p.map(|p| p.0))
}

/// The client's address (the peer, or what a trusted proxy forwarded), as the accept loop
/// found it for the rate limits.
#[derive(Debug, Clone, Copy)]
pub struct ClientIp(pub IpAddr);

pub fn client_ip() -> impl Filter<Extract = (Option<IpAddr>,), Error = std::convert::Infallible> + Clone {
    warp::ext::optional::<ClientIp>().map(|c: Option<ClientIp>| c.map(|c| c.0))
}

/// Extracts a JSON body of type `T`: 415 unless `application/json`, 413 over `BODY_LIMIT`
/// (checked against `Content-Length` first and again while reading), 400 with the parse
/// error's line and column for malformed JSON or wrong types.
pub fn json_body<T: DeserializeOwned + Send>() -> impl Filter<Extract = (T,), Error = Rejection> + Clone {
    limited_body("application/json", BODY_LIMIT)
        .and_then(|bytes: BytesMut| async move { parse_json::<T>(&bytes).map_err(warp::reject::custom) })
}

/// Extracts a UTF-8 text body of media type `media` (415 otherwise) of at most `limit` bytes
/// (413 beyond; checked as `json_body` checks), 400 when it is not UTF-8.
pub fn text_body(media: &'static str, limit: usize) -> impl Filter<Extract = (String,), Error = Rejection> + Clone {
    limited_body(media, limit).and_then(|bytes: BytesMut| async move {
        String::from_utf8(bytes.to_vec())
            .map_err(|e| warp::reject::custom(ApiError::BadRequest(format!("the body is not UTF-8 text: {e}"))))
    })
}

/// The raw body: its media type checked, its length bounded by `limit`.
fn limited_body(media: &'static str, limit: usize) -> impl Filter<Extract = (BytesMut,), Error = Rejection> + Clone {
    warp::header::optional::<String>("content-type")
        .and(warp::header::optional::<String>("content-length"))
        .and_then(move |content_type: Option<String>, length: Option<String>| async move {
            check_content_type(media, content_type.as_deref())?;
            if let Some(len) = length {
                let len: u64 = len
                    .trim()
                    .parse()
                    .map_err(|_| warp::reject::custom(ApiError::BadRequest("invalid Content-Length".into())))?;
                if len > limit as u64 {
                    return Err(warp::reject::custom(ApiError::PayloadTooLarge(limit)));
                }
            }
            Ok::<_, Rejection>(())
        })
        .untuple_one()
        .and(warp::body::stream())
        .and_then(move |body| async move { read_limited(body, limit).await.map_err(warp::reject::custom) })
}

fn check_content_type(media: &str, content_type: Option<&str>) -> Result<(), Rejection> {
    let essence = content_type.unwrap_or("").split(';').next().unwrap_or("").trim();
    if essence.eq_ignore_ascii_case(media) {
        Ok(())
    } else {
        Err(warp::reject::custom(ApiError::UnsupportedMediaType(format!(
            "expected Content-Type: {media}, got {:?}",
            content_type.unwrap_or("none")
        ))))
    }
}

async fn read_limited<S, B>(body: S, limit: usize) -> Result<BytesMut, ApiError>
where
    S: futures_util::Stream<Item = Result<B, warp::Error>>,
    B: Buf,
{
    let mut body = std::pin::pin!(body);
    let mut out = BytesMut::new();
    while let Some(chunk) = body.next().await {
        let chunk = chunk.map_err(|e| ApiError::BadRequest(format!("could not read the request body: {e}")))?;
        if out.len() + chunk.remaining() > limit {
            return Err(ApiError::PayloadTooLarge(limit));
        }
        bytes::BufMut::put(&mut out, chunk);
    }
    Ok(out)
}

/// Parses JSON, naming the position of the first error.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(bytes).map_err(|e| {
        let what = match e.classify() {
            serde_json::error::Category::Data => "invalid request body",
            _ => "malformed JSON",
        };
        ApiError::BadRequest(format!("{what}: {e}"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::error::recover;

    #[derive(Debug, serde::Deserialize, serde::Serialize)]
    #[serde(deny_unknown_fields)]
    struct Login {
        #[serde(rename = "inviteCode")]
        invite_code: String,
    }

    fn route() -> impl Filter<Extract = (impl warp::Reply,), Error = std::convert::Infallible> + Clone {
        warp::post().and(json_body::<Login>()).map(|l: Login| warp::reply::json(&l)).recover(recover)
    }

    async fn send(content_type: Option<&str>, body: Vec<u8>) -> (u16, serde_json::Value) {
        let mut req = warp::test::request().method("POST").path("/").body(body);
        if let Some(ct) = content_type {
            req = req.header("content-type", ct);
        }
        let res = req.reply(&route()).await;
        let json = serde_json::from_slice(res.body()).unwrap_or(serde_json::Value::Null);
        (res.status().as_u16(), json)
    }

    #[tokio::test]
    async fn a_valid_json_body_is_parsed() {
        let (status, body) = send(Some("application/json; charset=utf-8"), br#"{"inviteCode":"x"}"#.to_vec()).await;
        assert_eq!(status, 200);
        assert_eq!(body["inviteCode"], "x");
    }

    #[tokio::test]
    async fn malformed_json_is_a_400_naming_the_position() {
        let (status, body) = send(Some("application/json"), b"{\"inviteCode\": ".to_vec()).await;
        assert_eq!(status, 400);
        assert_eq!(body["error"], "bad_request");
        let message = body["message"].as_str().unwrap_or_default();
        assert!(message.contains("malformed JSON") && message.contains("line 1 column"), "{message}");
    }

    #[tokio::test]
    async fn wrong_types_and_unknown_fields_are_400() {
        let (status, body) = send(Some("application/json"), br#"{"inviteCode": 5}"#.to_vec()).await;
        assert_eq!(status, 400);
        assert!(body["message"].as_str().unwrap_or_default().contains("invalid type"), "{body}");
        let (status, _) = send(Some("application/json"), br#"{"inviteCode":"x","admin":true}"#.to_vec()).await;
        assert_eq!(status, 400);
    }

    #[tokio::test]
    async fn a_missing_or_wrong_content_type_is_415() {
        for ct in [None, Some("text/plain"), Some("application/jsonx")] {
            let (status, body) = send(ct, br#"{"inviteCode":"x"}"#.to_vec()).await;
            assert_eq!(status, 415, "{ct:?}");
            assert_eq!(body["error"], "unsupported_media_type");
        }
    }

    #[tokio::test]
    async fn a_body_over_64_kib_is_413() {
        let big = format!(r#"{{"inviteCode":"{}"}}"#, "a".repeat(BODY_LIMIT));
        let (status, body) = send(Some("application/json"), big.into_bytes()).await;
        assert_eq!(status, 413);
        assert_eq!(body["error"], "payload_too_large");
    }
}
