//! Typed query strings: the whole query is parsed into one struct (`deny_unknown_fields`),
//! so an unknown parameter, a wrong value and a repeated parameter (`stage=a&stage=b`) are
//! each a 400 that names the problem — never "last one wins".

use serde::de::DeserializeOwned;
use warp::{Filter, Rejection};

use super::error::ApiError;

/// The request's query string parsed as `T` (an absent query parses like an empty one).
pub fn typed_query<T: DeserializeOwned + Send + 'static>() -> impl Filter<Extract = (T,), Error = Rejection> + Clone {
    warp::query::raw()
        .or(warp::any().map(String::new))
        .unify()
        .and_then(|raw: String| async move { parse_query::<T>(&raw).map_err(warp::reject::custom) })
}

pub fn parse_query<T: DeserializeOwned>(raw: &str) -> Result<T, ApiError> {
    serde_urlencoded::from_str(raw).map_err(|e| ApiError::BadRequest(format!("invalid query string: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Q {
        stage: Option<crate::domain::Stage>,
        rep: Option<String>,
    }

    #[test]
    fn known_parameters_parse_once_each() {
        let q: Result<Q, _> = parse_query("stage=closed-won&rep=Sam%20Rivera");
        assert_eq!(q.ok(), Some(Q { stage: Some(crate::domain::Stage::ClosedWon), rep: Some("Sam Rivera".into()) }));
        assert_eq!(parse_query::<Q>("").ok(), Some(Q { stage: None, rep: None }));
    }

    #[test]
    fn repeated_unknown_and_wrong_values_are_refused_by_name() {
        for (raw, says) in [
            ("stage=proposal&stage=negotiation", "duplicate field `stage`"),
            ("%72ep=a&rep=b", "duplicate field `rep`"),
            ("colour=red", "unknown field `colour`"),
            ("stage=discovery", "unknown variant `discovery`"),
        ] {
            let message = parse_query::<Q>(raw).err().map(|e| e.to_string()).unwrap_or_default();
            assert!(message.contains(says), "{raw}: {message}");
        }
    }
}
