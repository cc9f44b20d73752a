//! Optional HTTPS on the serving port: rustls (ring provider, TLS 1.2 and 1.3) from PEM
//! files, advertising HTTP/2 and HTTP/1.1 over ALPN. No OpenSSL anywhere.

use std::sync::Arc;

use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::{self, ServerConfig};

use crate::config::TlsFiles;

#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    #[error("TLS certificate {path}: {message}")]
    Cert { path: String, message: String },
    #[error("TLS private key {path}: {message}")]
    Key { path: String, message: String },
    #[error("TLS configuration: {0}")]
    Config(#[from] rustls::Error),
}

pub fn acceptor(files: &TlsFiles) -> Result<TlsAcceptor, TlsError> {
    let cert_path = files.cert.display().to_string();
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(&files.cert)
        .and_then(|iter| iter.collect())
        .map_err(|e| TlsError::Cert { path: cert_path.clone(), message: e.to_string() })?;
    if certs.is_empty() {
        return Err(TlsError::Cert { path: cert_path, message: "no certificate found".into() });
    }
    let key = PrivateKeyDer::from_pem_file(&files.key)
        .map_err(|e| TlsError::Key { path: files.key.display().to_string(), message: e.to_string() })?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .with_no_client_auth()
        .with_single_cert(certs, key)?;
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(TlsAcceptor::from(Arc::new(config)))
}
