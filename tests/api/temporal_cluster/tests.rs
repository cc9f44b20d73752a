//! The harness itself: the CLI is served through nginx only with a client certificate of our
//! CA, and a started workflow outlives a SIGKILL of the dev server on the same database file.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use super::TemporalCluster;

const LIST: &[&str] = &["workflow", "list"];

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn the_cli_through_nginx_with_the_good_client_certificate_is_served() {
    let cluster = TemporalCluster::start();

    let out = cluster.cli(LIST);
    let listed = cluster.cli_json(LIST);

    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(listed, serde_json::json!([]), "a fresh cluster has no workflows");
    let env = cluster.gtms_env();
    let value = |name: &str| env.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone()).expect(name);
    assert_eq!(value("GTMS_TEMPORAL_ADDRESS"), cluster.address());
    assert_eq!(value("GTMS_TEMPORAL_TLS_SERVER_NAME"), "localhost");
    for name in ["GTMS_TEMPORAL_TLS_CERT", "GTMS_TEMPORAL_TLS_KEY", "GTMS_TEMPORAL_TLS_CA"] {
        assert!(Path::new(&value(name)).is_file(), "{name} names a file");
    }
}

#[test]
fn a_client_certificate_from_another_ca_or_none_is_refused() {
    let cluster = TemporalCluster::start();
    let no_certificate: Vec<_> = cluster
        .gtms_env()
        .into_iter()
        .filter(|(name, _)| name != "GTMS_TEMPORAL_TLS_CERT" && name != "GTMS_TEMPORAL_TLS_KEY")
        .collect();

    let rogue = cluster.cli_with(&cluster.gtms_env_rogue(), LIST);
    let anonymous = cluster.cli_with(&no_certificate, LIST);
    let presented = presenting_the_rogue_certificate(&cluster);
    let good = cluster.cli(LIST);

    assert!(!rogue.status.success(), "a rogue certificate was served");
    assert!(!anonymous.status.success(), "a client without a certificate was served");
    for refused in [&rogue, &anonymous] {
        assert!(stderr(refused).contains("400 No required SSL certificate was sent"), "{}", stderr(refused));
    }
    assert!(presented.contains("400 The SSL certificate error"), "nginx checked the rogue certificate: {presented}");
    assert!(good.status.success(), "the good certificate still works: {}", stderr(&good));
}

/// Go's TLS client (the CLI) withholds a certificate that does not chain to a CA nginx names,
/// so nginx sees none; curl presents it regardless, as rustls does, and nginx must verify it.
/// The certificate itself is sound: it verifies under its own (rogue) CA.
fn presenting_the_rogue_certificate(cluster: &TemporalCluster) -> String {
    let certs = &cluster.certs;
    let sound =
        Command::new("openssl").arg("verify").arg("-CAfile").arg(&certs.rogue_ca).arg(&certs.rogue_cert).output();
    assert!(sound.expect("openssl runs").status.success(), "the rogue certificate verifies under the rogue CA");
    let port = cluster.address().rsplit(':').next().expect("port").to_owned();
    let out = Command::new("curl")
        .args(["-sS", "--http2", "--resolve", &format!("localhost:{port}:127.0.0.1"), "--cacert"])
        .arg(&certs.ca)
        .arg("--cert")
        .arg(&certs.rogue_cert)
        .arg("--key")
        .arg(&certs.rogue_key)
        .arg(format!("https://localhost:{port}/"))
        .output()
        .expect("curl is installed (make deps installs it)");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[tokio::test]
async fn a_started_workflow_outlives_a_server_kill_and_restart_on_the_same_database_file() {
    let mut cluster = TemporalCluster::start();
    let start = ["workflow", "start", "--type", "T", "--task-queue", "q", "--workflow-id", "w1"];
    let started = cluster.cli(&start);
    assert!(started.status.success(), "{}", stderr(&started));

    cluster.kill_server();
    let while_down = cluster.cli(&["workflow", "describe", "--workflow-id", "w1"]);
    cluster.restart_server();
    let after = cluster.wait_for_workflow_status("w1", "Running", Duration::from_secs(30)).await;

    assert!(!while_down.status.success(), "the CLI fails while the server is down");
    assert_eq!(after.pointer("/workflowExecutionInfo/type/name"), Some(&"T".into()));
    let terminated = cluster.cli(&["workflow", "terminate", "--workflow-id", "w1", "--reason", "test over"]);
    assert!(terminated.status.success(), "{}", stderr(&terminated));
    cluster.wait_for_workflow_status("w1", "Terminated", Duration::from_secs(30)).await;
    let closed = cluster.cli_json_async(&["workflow", "describe", "--workflow-id", "w1"]).await;
    assert_eq!(closed["closeEvent"]["eventType"], "EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED", "{closed}");
}
