//! Every non-2xx answer is the JSON error envelope.

use crate::helpers::spawn_app;

pub async fn assert_envelope(res: reqwest::Response, status: u16, code: &str) -> serde_json::Value {
    assert_eq!(res.status().as_u16(), status);
    assert_eq!(res.headers()["content-type"], "application/json");
    assert!(res.headers().contains_key("x-request-id"));
    let body: serde_json::Value = res.json().await.expect("envelope is JSON");
    assert_eq!(body["error"], code, "{body}");
    assert_eq!(body["status"], status, "{body}");
    assert!(body["message"].as_str().is_some_and(|m| !m.is_empty()), "{body}");
    body
}

#[tokio::test]
async fn unknown_routes_get_a_404_envelope() {
    let app = spawn_app().await;
    for path in ["/nope", "/api/nope", "/api/health/extra", "/%2e%2e/etc/passwd"] {
        assert_envelope(app.get(path).await, 404, "not_found").await;
    }
    app.stop().await;
}

#[tokio::test]
async fn a_wrong_method_gets_a_405_envelope() {
    let app = spawn_app().await;
    let res = app.client.post(app.url("/api/health")).send().await.expect("post");
    assert_envelope(res, 405, "method_not_allowed").await;
    let res = app.client.delete(app.url("/api/health")).send().await.expect("delete");
    assert_envelope(res, 405, "method_not_allowed").await;
    app.stop().await;
}
