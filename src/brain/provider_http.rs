//! What the HTTP model providers (`openai`, `anthropic`) share: the client, reading a reply,
//! mapping transport errors (never with the key), and turns merged to alternate.

use super::model::{ModelError, Turn};
use crate::config::LlmSettings;

/// Consecutive turns of one speaker joined into one (some APIs require alternating roles).
pub fn alternating(turns: &[Turn]) -> Vec<Turn> {
    let mut out: Vec<Turn> = Vec::with_capacity(turns.len());
    for t in turns {
        match out.last_mut() {
            Some(last) if last.speaker == t.speaker => {
                last.text.push_str("\n\n");
                last.text.push_str(&t.text);
            }
            _ => out.push(t.clone()),
        }
    }
    out
}

/// A reqwest client with the configured timeout (rustls only).
pub fn http_client(settings: &LlmSettings) -> Result<reqwest::Client, ModelError> {
    reqwest::Client::builder()
        .timeout(std::time::Duration::from_secs(settings.timeout_secs))
        .connect_timeout(std::time::Duration::from_secs(settings.timeout_secs.min(10)))
        .build()
        .map_err(|e| ModelError::Unreachable(format!("building the HTTP client: {e}")))
}

/// Maps a transport error; never includes request headers (the key).
pub fn transport_error(e: reqwest::Error, timeout_secs: u64) -> ModelError {
    if e.is_timeout() {
        ModelError::Timeout(timeout_secs)
    } else {
        ModelError::Unreachable(e.without_url().to_string())
    }
}

/// Reads a JSON reply, or a status error with the start of the body.
pub async fn json_reply(res: reqwest::Response, timeout_secs: u64) -> Result<serde_json::Value, ModelError> {
    let status = res.status();
    let body = res.text().await.map_err(|e| transport_error(e, timeout_secs))?;
    if !status.is_success() {
        return Err(ModelError::Status { status: status.as_u16(), detail: crate::domain::clip(&body, 300) });
    }
    serde_json::from_str(&body).map_err(|e| ModelError::BadReply(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brain::model::Speaker;

    #[test]
    fn consecutive_turns_of_one_speaker_are_merged() {
        let t = |s, x: &str| Turn { speaker: s, text: x.into() };
        let turns = [t(Speaker::User, "a"), t(Speaker::User, "b"), t(Speaker::Assistant, "c")];
        let merged = alternating(&turns);
        assert_eq!(merged.len(), 2);
        assert_eq!(merged[0].text, "a\n\nb");
    }
}
