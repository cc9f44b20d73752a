//! The embedded keyless files: what `gtms ingest` wrote into `assets/company/public/`, compiled
//! into the binary by rust-embed and indexed once at start-up by URL path, each with its
//! precompressed siblings and a content hash for the ETag. The hash is the SHA-256 rust-embed
//! computed at build time, so indexing reads no file's bytes: the embedded pages stay untouched
//! (out of the process's RSS) until a client asks for them.

use std::borrow::Cow;
use std::collections::HashMap;

use bytes::Bytes;
use rust_embed::RustEmbed;

#[derive(RustEmbed)]
#[folder = "../../assets/company/public/"]
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
    pub identity: Bytes,
    pub gzip: Option<Bytes>,
    pub brotli: Option<Bytes>,
    /// Hex SHA-256 prefix of the identity bytes; encodings append a suffix in the ETag.
    pub hash: String,
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
        for name in PublicFiles::iter() {
            if name.ends_with(".gz") || name.ends_with(".br") {
                continue;
            }
            let Some(file) = PublicFiles::get(&name) else { continue };
            let sibling = |ext: &str| PublicFiles::get(&format!("{name}.{ext}")).map(|f| bytes(f.data));
            let hash = hex::encode(&file.metadata.sha256_hash()[..16]);
            let identity = bytes(file.data);
            let entry = StaticFile {
                file: name.to_string(),
                content_type: content_type(&name),
                gzip: sibling("gz"),
                brotli: sibling("br"),
                identity,
                hash,
            };
            files.insert(url_path(&name), entry);
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
