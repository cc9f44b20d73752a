//! The embedded keyless files: what `gtms ingest` wrote into `assets/company/public/`, compiled
//! into the binary by rust-embed and indexed once at start-up by URL path, each with a content
//! hash for the ETag. Only the `.br` siblings are embedded (issue 27: the identity copies were
//! 12.7 MB of the binary, the `.gz` siblings 2.6 MB beside 2.0 MB of brotli): a file's gzip bytes
//! are made from its brotli on the first request that wants gzip, by the same deterministic
//! encoder `gtms ingest` runs, so they are the bytes ingest wrote into the `.gz` sibling, and kept;
//! a client that accepts neither encoding gets the identity bytes, decoded once and kept.
//! The hash is the SHA-256 rust-embed computed at build time of the brotli bytes, so indexing
//! reads no file's bytes: the embedded pages stay untouched (out of the process's RSS) until a
//! client asks for them. The internal registry is embedded as brotli too, and decoded once.

use std::borrow::Cow;
use std::collections::HashMap;
use std::io::Cursor;
use std::sync::OnceLock;

use bytes::Bytes;
use rust_embed::RustEmbed;

#[derive(RustEmbed)]
#[folder = "../../assets/company/public/"]
#[include = "*.br"]
struct PublicFiles;

#[derive(RustEmbed)]
#[folder = "../../assets/company/internal/"]
#[include = "*.br"]
struct InternalFiles;

/// One file and its encodings.
#[derive(Debug, Clone)]
pub struct StaticFile {
    /// Its file name under the public root (`company/apple.html`), as `export-static` writes it.
    pub file: String,
    pub content_type: &'static str,
    /// The file as brotli (quality 11), as ingest wrote it.
    pub brotli: Bytes,
    /// Hex SHA-256 prefix of the brotli bytes (deterministic, so it changes exactly when the
    /// content does); encodings append a suffix in the ETag.
    pub hash: String,
    /// The gzip bytes, once a client has asked for them (`gzip`).
    gzip: OnceLock<Bytes>,
    /// The identity bytes, once a client has asked for them (`identity`).
    identity: OnceLock<Bytes>,
}

impl StaticFile {
    pub fn new(file: String, brotli: Bytes, hash: String) -> Self {
        StaticFile {
            content_type: content_type(&file),
            file,
            brotli,
            hash,
            gzip: OnceLock::new(),
            identity: OnceLock::new(),
        }
    }

    /// The file as gzip (level 9, no timestamp: the bytes of ingest's `.gz` sibling), made on
    /// the first call and kept for the next ones.
    pub fn gzip(&self) -> std::io::Result<Bytes> {
        made_once(&self.gzip, || gtms_precompress::gzip(&self.read()?))
    }

    /// The file's own bytes, decoded on the first call and kept for the next ones.
    pub fn identity(&self) -> std::io::Result<Bytes> {
        made_once(&self.identity, || self.read())
    }

    /// The file's own bytes, decoded now and not kept (to parse them once).
    pub fn read(&self) -> std::io::Result<Vec<u8>> {
        gtms_precompress::unbrotli(&self.brotli)
    }

    /// The file's own bytes as they are decoded (to parse them as a stream).
    pub fn reader(&self) -> impl std::io::Read + '_ {
        gtms_precompress::unbrotli_reader(&self.brotli[..])
    }
}

/// What `cell` holds, made by `make` on the first call (two racing first calls both make it,
/// and the bytes are the same: the encodings are deterministic).
fn made_once(cell: &OnceLock<Bytes>, make: impl FnOnce() -> std::io::Result<Vec<u8>>) -> std::io::Result<Bytes> {
    if let Some(bytes) = cell.get() {
        return Ok(bytes.clone());
    }
    let bytes = Bytes::from(make()?);
    Ok(cell.get_or_init(|| bytes).clone())
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
        for br_name in PublicFiles::iter() {
            let Some(name) = br_name.strip_suffix(".br") else { continue };
            let Some(br) = PublicFiles::get(&br_name) else { continue };
            let hash = hex::encode(&br.metadata.sha256_hash()[..16]);
            files.insert(url_path(name), StaticFile::new(name.to_owned(), bytes(br.data), hash));
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

/// The embedded internal registry (every tracked company): its JSON, decoded from brotli as it
/// is read (the JSON was 0.9 MB of the binary; decoded whole, its buffer raised glibc's mmap
/// threshold when freed, `gtms_precompress::brotli_streamed`). `None` when the build embeds none.
pub fn registry() -> Option<impl std::io::Read> {
    InternalFiles::get(&format!("{REGISTRY_FILE}.br")).map(|f| gtms_precompress::unbrotli_reader(Cursor::new(f.data)))
}
