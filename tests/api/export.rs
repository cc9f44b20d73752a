//! `gtms export-static` served by a real nginx (gzip_static, brotli_static) gives the same
//! bytes as the binary, for every file and every encoding.

use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::helpers::{gtms, spawn_app};

struct Nginx(Child);

impl Drop for Nginx {
    /// SIGTERM (fast shutdown): the master stops its workers; a SIGKILL would orphan them.
    fn drop(&mut self) {
        let _ = Command::new("kill").args(["-TERM", &self.0.id().to_string()]).status();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("free port")
}

fn start_nginx(root: &Path, run: &Path, port: u16) -> Nginx {
    let template = std::fs::read_to_string("tests/support/nginx.conf.in").expect("template");
    let conf = template
        .replace("@ROOT@", &root.display().to_string())
        .replace("@RUNDIR@", &run.display().to_string())
        .replace("@PORT@", &port.to_string())
        .replace("@WORKERS@", "1");
    let conf_path = run.join("nginx.conf");
    std::fs::write(&conf_path, conf).expect("write conf");
    let child = Command::new("nginx")
        .arg("-c")
        .arg(&conf_path)
        .arg("-e")
        .arg(run.join("error.log"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("nginx is installed (.ci/run installs it)");
    let deadline = Instant::now() + Duration::from_secs(10);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "nginx did not start: {:?}", std::fs::read_to_string(run.join("error.log")));
        std::thread::sleep(Duration::from_millis(20));
    }
    Nginx(child)
}

#[tokio::test]
async fn nginx_serving_the_export_gives_the_same_bytes_as_the_binary() {
    let dir = tempfile::tempdir().expect("dir");
    let (root, run) = (dir.path().join("www"), dir.path().join("run"));
    std::fs::create_dir_all(&run).expect("run dir");
    let out = gtms().arg("export-static").arg(&root).output().expect("export");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let port = free_port();
    let _nginx = start_nginx(&root, &run, port);
    let app = spawn_app().await;
    let client = reqwest::Client::builder().no_gzip().no_brotli().build().expect("client");
    let index: serde_json::Value = app.get("/company/data/index.json").await.json().await.expect("index");
    let mut paths: Vec<String> = [
        "/company/data/index.json",
        "/company/search-index.json",
        "/company/quotes.json",
        "/company/_slugmap.json",
        "/company/llms.txt",
        "/llms.txt",
        "/sitemap.xml",
    ]
    .iter()
    .map(|p| p.to_string())
    .collect();
    for c in index["companies"].as_array().expect("companies") {
        paths.push(format!("/company/data/{}.json", c["slug"].as_str().expect("slug")));
    }

    for path in &paths {
        for encoding in ["identity", "gzip", "br"] {
            let fetch = |base: String| {
                let client = client.clone();
                async move {
                    let res = client
                        .get(format!("{base}{path}"))
                        .header("accept-encoding", encoding)
                        .send()
                        .await
                        .expect("get");
                    assert_eq!(res.status(), 200, "{base}{path}");
                    let enc = res.headers().get("content-encoding").map(|v| v.to_str().unwrap_or("").to_owned());
                    (enc, res.bytes().await.expect("body"))
                }
            };
            let (ours, theirs) = (fetch(app.base.clone()).await, fetch(format!("http://127.0.0.1:{port}")).await);
            assert_eq!(ours.0, theirs.0, "{path} {encoding}: content-encoding");
            assert!(ours.1 == theirs.1, "{path} {encoding}: bytes differ");
        }
    }
    app.stop().await;
}
