//! The one HTTP client of `edgar-fetch`: declared User-Agent, requests spaced at least
//! `min_interval` apart (100 ms = 10 a second, the SEC's limit), and up to `ATTEMPTS` tries
//! with doubling backoff (or the server's `Retry-After`) on 429, 503 and connection errors.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tokio::sync::Mutex;
use tokio::time::Instant;

const ATTEMPTS: u32 = 5;

#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    #[error("the User-Agent must name a contact email (SEC fair access), e.g. \"Acme Research ops@acme.example\"")]
    UserAgent,
    #[error("{0}: not a tracked ticker or CIK")]
    Unknown(String),
    #[error("reading the corpus: {0}")]
    Corpus(String),
    #[error("GET {0}: HTTP {1}")]
    Status(String, u16),
    #[error("GET {0}: {1}")]
    Http(String, reqwest::Error),
    #[error("{0}: {1}")]
    Json(String, serde_json::Error),
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("building the HTTP client: {0}")]
    Client(reqwest::Error),
}

pub struct Client {
    http: reqwest::Client,
    min_interval: Duration,
    backoff: Duration,
    next: Mutex<Instant>,
    requests: AtomicUsize,
}

impl Client {
    pub fn new(user_agent: &str, min_interval: Duration, backoff: Duration) -> Result<Self, FetchError> {
        let http = reqwest::Client::builder()
            .user_agent(user_agent)
            .timeout(Duration::from_secs(60))
            .build()
            .map_err(FetchError::Client)?;
        Ok(Self { http, min_interval, backoff, next: Mutex::new(Instant::now()), requests: AtomicUsize::new(0) })
    }

    pub fn requests(&self) -> usize {
        self.requests.load(Ordering::Relaxed)
    }

    /// GET with spacing and retries; the body of a 2xx answer.
    pub async fn get(&self, url: &str) -> Result<Vec<u8>, FetchError> {
        let mut wait = self.backoff;
        for attempt in 1..=ATTEMPTS {
            self.take_slot().await;
            self.requests.fetch_add(1, Ordering::Relaxed);
            let retry_after = match self.http.get(url).send().await {
                Ok(resp) if resp.status().is_success() => {
                    return resp.bytes().await.map(|b| b.to_vec()).map_err(|e| FetchError::Http(url.to_owned(), e));
                }
                Ok(resp) if matches!(resp.status().as_u16(), 429 | 503) && attempt < ATTEMPTS => retry_after(&resp),
                Ok(resp) => return Err(FetchError::Status(url.to_owned(), resp.status().as_u16())),
                Err(e) if (e.is_connect() || e.is_timeout()) && attempt < ATTEMPTS => None,
                Err(e) => return Err(FetchError::Http(url.to_owned(), e)),
            };
            tokio::time::sleep(retry_after.unwrap_or(wait)).await;
            wait *= 2;
        }
        Err(FetchError::Status(url.to_owned(), 429))
    }

    /// Waits for this request's turn: at most one request per `min_interval`.
    async fn take_slot(&self) {
        let mut next = self.next.lock().await;
        let now = Instant::now();
        if *next > now {
            tokio::time::sleep_until(*next).await;
        }
        *next = Instant::now() + self.min_interval;
    }
}

fn retry_after(resp: &reqwest::Response) -> Option<Duration> {
    let secs: u64 = resp.headers().get(reqwest::header::RETRY_AFTER)?.to_str().ok()?.trim().parse().ok()?;
    Some(Duration::from_secs(secs.min(60)))
}
