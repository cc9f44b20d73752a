//! Certificates for the mutual-TLS Temporal harness, made with the `openssl` CLI into a temp
//! dir: a CA, a server certificate for `localhost` (DNS:localhost, IP:127.0.0.1) and a client
//! certificate signed by it, and a second, rogue CA with a client certificate of its own.
//! EC P-256 keys in PKCS#8, leaf certificates with `CA:FALSE` and the right extended key usage,
//! as rustls (the appliance), Go (the `temporal` CLI) and OpenSSL (nginx) all accept.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Paths of the PEM files; they live as long as the directory they were generated into.
#[derive(Debug, Clone)]
pub struct Certs {
    /// The CA nginx trusts for client certificates and clients trust for the server.
    pub ca: PathBuf,
    pub server_cert: PathBuf,
    pub server_key: PathBuf,
    pub client_cert: PathBuf,
    pub client_key: PathBuf,
    /// Another CA, unknown to nginx.
    pub rogue_ca: PathBuf,
    /// A client certificate signed by the rogue CA.
    pub rogue_cert: PathBuf,
    pub rogue_key: PathBuf,
}

/// A CA's certificate and key.
struct Authority {
    cert: PathBuf,
    key: PathBuf,
}

const SERVER_EXTENSIONS: &str = "basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature
extendedKeyUsage=serverAuth
subjectAltName=DNS:localhost,IP:127.0.0.1
subjectKeyIdentifier=hash
authorityKeyIdentifier=keyid
";

const CLIENT_EXTENSIONS: &str = "basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature
extendedKeyUsage=clientAuth
subjectKeyIdentifier=hash
authorityKeyIdentifier=keyid
";

impl Certs {
    /// Generates every certificate into `dir` (which must exist).
    pub fn generate(dir: &Path) -> Certs {
        let ca = authority(dir, "ca", "gtms test CA");
        let rogue = authority(dir, "rogue-ca", "gtms rogue CA");
        let (server_cert, server_key) = leaf(dir, &ca, "server", "localhost", SERVER_EXTENSIONS);
        let (client_cert, client_key) = leaf(dir, &ca, "client", "gtms-client", CLIENT_EXTENSIONS);
        let (rogue_cert, rogue_key) = leaf(dir, &rogue, "rogue-client", "gtms-client", CLIENT_EXTENSIONS);
        Certs {
            ca: ca.cert,
            server_cert,
            server_key,
            client_cert,
            client_key,
            rogue_ca: rogue.cert,
            rogue_cert,
            rogue_key,
        }
    }
}

/// A self-signed CA valid for two days.
fn authority(dir: &Path, name: &str, common_name: &str) -> Authority {
    let (cert, key) = (dir.join(format!("{name}.pem")), dir.join(format!("{name}.key")));
    run(Command::new("openssl")
        .args(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2"])
        .args(["-subj", &format!("/CN={common_name}")])
        .args(["-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
        .arg("-keyout")
        .arg(&key)
        .arg("-out")
        .arg(&cert));
    Authority { cert, key }
}

/// A key, a request, and a certificate signed by `ca` with `extensions`; returns (cert, key).
fn leaf(dir: &Path, ca: &Authority, name: &str, common_name: &str, extensions: &str) -> (PathBuf, PathBuf) {
    let (cert, key) = (dir.join(format!("{name}.pem")), dir.join(format!("{name}.key")));
    let (csr, ext) = (dir.join(format!("{name}.csr")), dir.join(format!("{name}.ext")));
    std::fs::write(&ext, extensions).expect("write extensions file");
    run(Command::new("openssl")
        .args(["req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"])
        .args(["-subj", &format!("/CN={common_name}")])
        .arg("-keyout")
        .arg(&key)
        .arg("-out")
        .arg(&csr));
    run(Command::new("openssl")
        .args(["x509", "-req", "-days", "2", "-sha256", "-CAcreateserial", "-in"])
        .arg(&csr)
        .arg("-CA")
        .arg(&ca.cert)
        .arg("-CAkey")
        .arg(&ca.key)
        .arg("-extfile")
        .arg(&ext)
        .arg("-out")
        .arg(&cert));
    (cert, key)
}

fn run(command: &mut Command) {
    let out = command.output().expect("openssl is installed (make deps installs it)");
    assert!(out.status.success(), "{command:?} failed: {}", String::from_utf8_lossy(&out.stderr));
}
