//! The embedded keyless files: what `gtms ingest` wrote into `assets/company/public/`, compiled
//! into the binary by rust-embed and indexed once at start-up by URL path, each with its
//! precompressed siblings and a content hash for the ETag. Only the `.gz` and `.br` siblings are
//! embedded (issue 27: the identity copies were 12.7 MB of the binary, the two encodings are
//! 4.9 MB): a client that accepts neither gets the identity bytes gunzipped once, on its first
//! request for that file, and kept.
//! The hash is the SHA-256 rust-embed computed at build time of the gzip bytes, so indexing reads
//! no file's bytes: the embedded pages stay untouched (out of the process's RSS) until a client
//! asks for them.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::OnceLock;

use bytes::Bytes;
use rust_embed::RustEmbed;

#[derive(RustEmbed)]
#[folder = "../../assets/company/public/"]
#[include = "*.gz"]
#[include = "*.br"]
struct PublicFiles;

#[derive(RustEmbed)]
#[folder = "../../assets/company/internal/"]
struct InternalFiles;

/// One file and its encodings.
#[derive(Debug, Clone)]
pub struct StaticFile {
    /// Its file name under the public root (`company/apple.html`), as `export-static` writes it.
    pub file: String,
    pub content_type: &'static str,
    pub gzip: Bytes,
    pub brotli: Option<Bytes>,
    /// Hex SHA-256 prefix of the gzip bytes (deterministic, so it changes exactly when the
    /// content does); encodings append a suffix in the ETag.
    pub hash: String,
    /// The identity bytes, once a client has asked for them (`identity`).
    identity: OnceLock<Bytes>,
}

impl StaticFile {
    pub fn new(file: String, gzip: Bytes, brotli: Option<Bytes>, hash: String) -> Self {
        StaticFile { content_type: content_type(&file), file, gzip, brotli, hash, identity: OnceLock::new() }
    }

    /// The file's own bytes, gunzipped on the first call and kept for the next ones.
    pub fn identity(&self) -> std::io::Result<Bytes> {
        if let Some(bytes) = self.identity.get() {
            return Ok(bytes.clone());
        }
        let bytes = Bytes::from(self.read()?);
        Ok(self.identity.get_or_init(|| bytes).clone())
    }

    /// The file's own bytes, gunzipped now and not kept (to parse them once).
    pub fn read(&self) -> std::io::Result<Vec<u8>> {
        gtms_precompress::gunzip(&self.gzip)
    }
}

/// Every keyless file, by URL path (`/company/data/apple.json`).
#[derive(Debug, Default)]
pub struct AssetTable {
    files: HashMap<String, StaticFile>,
}

fn bytes(data: Cow<'static, [u8]>) -> Bytes {
    match data {
        Cow::Borrowed(b) => Bytes::from_static(b),
        Cow::Owned(v) => Bytes::from(v),
    }
}

pub fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next() {
        Some("json") => "application/json",
        Some("txt") => "text/plain; charset=utf-8",
        Some("xml") => "application/xml",
        Some("html") => "text/html; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// The URL path a file answers: a page without its `.html` (`company/apple.html` →
/// `/company/apple`, `company/index.html` → `/company/`), any other file by its name.
pub fn url_path(file: &str) -> String {
    match file.strip_suffix(".html") {
        Some(page) => match page.strip_suffix("index") {
            Some(dir) if dir.ends_with('/') => format!("/{dir}"),
            _ => format!("/{page}"),
        },
        None => format!("/{file}"),
    }
}

impl AssetTable {
    /// Indexes the embedded files.
    pub fn embedded() -> Self {
        let mut files = HashMap::new();
        for gz_name in PublicFiles::iter() {
            let Some(name) = gz_name.strip_suffix(".gz") else { continue };
            let Some(gz) = PublicFiles::get(&gz_name) else { continue };
            let hash = hex::encode(&gz.metadata.sha256_hash()[..16]);
            let brotli = PublicFiles::get(&format!("{name}.br")).map(|f| bytes(f.data));
            files.insert(url_path(name), StaticFile::new(name.to_owned(), bytes(gz.data), brotli, hash));
        }
        Self { files }
    }

    pub fn get(&self, url_path: &str) -> Option<&StaticFile> {
        self.files.get(url_path)
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// URL paths of every file, sorted (for export and tests).
    pub fn paths(&self) -> Vec<&str> {
        let mut paths: Vec<&str> = self.files.keys().map(String::as_str).collect();
        paths.sort_unstable();
        paths
    }
}

/// The internal registry's file name (every tracked company; ingest writes it, not served).
pub const REGISTRY_FILE: &str = "registry.json";

/// The embedded internal registry (every tracked company), as JSON bytes.
pub fn registry_json() -> Option<Cow<'static, [u8]>> {
    InternalFiles::get(REGISTRY_FILE).map(|f| f.data)
}
