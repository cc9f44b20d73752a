use crate::helpers::spawn_app;

#[tokio::test]
async fn health_reports_the_design_shape_with_a_request_id() {
    let app = spawn_app().await;

    let res = app.get("/api/health").await;

    assert_eq!(res.status(), 200);
    assert!(res.headers().contains_key("x-request-id"));
    assert_eq!(res.headers()["content-type"], "application/json");
    let body: serde_json::Value = res.json().await.expect("json");
    assert_eq!(body["status"], "healthy");
    assert_eq!(body["temporal"], "disabled");
    assert_eq!(body["mode"], "demo");
    assert!(body["uptime"].is_u64());
    assert_eq!(body["version"], env!("CARGO_PKG_VERSION"));
    app.stop().await;
}

#[tokio::test]
async fn health_answers_head_requests() {
    let app = spawn_app().await;
    let res = app.client.head(app.url("/api/health")).send().await.expect("head");
    assert_eq!(res.status(), 200);
    app.stop().await;
}
