//! HTTPS on the same port with a self-signed certificate (made with the openssl CLI).

use std::process::Command;

use gtms::config::Layer;

use crate::helpers::spawn_app_with;

#[tokio::test]
async fn https_serves_health_with_a_self_signed_certificate() {
    let certs = tempfile::tempdir().expect("dir");
    let (cert, key) = (certs.path().join("cert.pem"), certs.path().join("key.pem"));
    let status = Command::new("openssl")
        .args(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1"])
        .args(["-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"])
        .args(["-addext", "basicConstraints=critical,CA:FALSE"])
        .arg("-keyout")
        .arg(&key)
        .arg("-out")
        .arg(&cert)
        .stderr(std::process::Stdio::null())
        .status()
        .expect("openssl runs");
    assert!(status.success());
    let (c, k) = (cert.clone(), key.clone());
    let app = spawn_app_with(move |l: &mut Layer| {
        l.tls_cert = Some(c);
        l.tls_key = Some(k);
    })
    .await;
    let root = reqwest::Certificate::from_pem(&std::fs::read(&cert).expect("cert")).expect("pem");
    let client = reqwest::Client::builder().add_root_certificate(root).build().expect("client");

    let res = client.get(app.url("/api/health")).send().await.expect("https request");

    assert!(app.base.starts_with("https://"));
    assert_eq!(res.status(), 200);
    let plain = reqwest::get(app.url("/api/health").replace("https://", "http://")).await;
    assert!(plain.is_err() || plain.is_ok_and(|r| r.status() != 200), "plain HTTP must not be served");
    app.stop().await;
}

#[tokio::test]
async fn a_missing_certificate_file_is_a_startup_error() {
    let dir = tempfile::tempdir().expect("dir");
    let layer = Layer {
        listen: Some("127.0.0.1:0".into()),
        data: Some(dir.path().join("d.redb")),
        tls_cert: Some(dir.path().join("none.pem")),
        tls_key: Some(dir.path().join("none.key")),
        ..Layer::default()
    };
    let config = layer.validate().expect("paths are validated when read");
    let err = gtms::app::start(config).await.err().expect("start fails");
    assert!(err.to_string().contains("TLS certificate"), "{err}");
}
