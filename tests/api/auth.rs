//! Workspace access: invite login, the session cookie, logout, JWT checks and roles.

use gtms::domain::Role;
use jsonwebtoken::{EncodingKey, Header};
use warp::Filter;

use crate::envelope::assert_envelope;
use crate::helpers::{TestApp, spawn_app, spawn_app_with};

const SECRET: &str = "test-secret-test-secret-test-secret-0123";

async fn login(app: &TestApp, body: serde_json::Value) -> reqwest::Response {
    app.client.post(app.url("/auth/login")).json(&body).send().await.expect("login")
}

fn sign(claims: serde_json::Value) -> String {
    jsonwebtoken::encode(&Header::default(), &claims, &EncodingKey::from_secret(SECRET.as_bytes())).expect("sign")
}

fn b64(bytes: &[u8]) -> String {
    const T: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |acc, (i, b)| acc | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..=chunk.len() {
            out.push(T[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
    out
}

#[tokio::test]
async fn an_invite_code_signs_in_with_a_token_and_a_session_cookie() {
    let app = spawn_app().await;
    let (code, _) = app.invite(Role::Viewer).await;

    let res = login(&app, serde_json::json!({ "inviteCode": code })).await;

    assert_eq!(res.status(), 200);
    let cookie = res.headers()["set-cookie"].to_str().expect("cookie").to_owned();
    assert!(cookie.starts_with("gtms_session="));
    for attr in ["HttpOnly", "SameSite=Strict", "Path=/", "Max-Age=43200"] {
        assert!(cookie.contains(attr), "{cookie}");
    }
    assert!(!cookie.contains("Secure"), "plain HTTP without secure_cookies");
    let body: serde_json::Value = res.json().await.expect("json");
    assert_eq!(body["role"], "viewer");
    assert_eq!(body["token"].as_str().map(|t| t.split('.').count()), Some(3));

    let out = app.client.post(app.url("/auth/logout")).send().await.expect("logout");
    assert_eq!(out.status(), 200);
    assert!(out.headers()["set-cookie"].to_str().expect("cookie").contains("Max-Age=0"));
    app.stop().await;
}

#[tokio::test]
async fn bad_codes_and_bad_bodies_are_refused_with_envelopes() {
    let app = spawn_app().await;
    let forged = format!("inv_{}_{}", "ab".repeat(6), "cd".repeat(16));
    for code in ["nope", forged.as_str(), ""] {
        assert_envelope(login(&app, serde_json::json!({ "inviteCode": code })).await, 401, "unauthorized").await;
    }
    let (code, id) = app.invite(Role::Admin).await;
    app.state().sessions().revoke_invite(&id, 1).await.expect("revoke");
    assert_envelope(login(&app, serde_json::json!({ "inviteCode": code })).await, 401, "unauthorized").await;

    let raw = |ct: &'static str, body: &'static str| {
        app.client.post(app.url("/auth/login")).header("content-type", ct).body(body).send()
    };
    let res = raw("application/json", "{\"inviteCode\": ").await.expect("send");
    let body = assert_envelope(res, 400, "bad_request").await;
    assert!(body["message"].as_str().unwrap_or("").contains("line 1 column"), "{body}");
    assert_envelope(raw("application/json", "{\"inviteCode\": 7}").await.expect("send"), 400, "bad_request").await;
    assert_envelope(raw("application/json", "{\"invite\": \"x\"}").await.expect("send"), 400, "bad_request").await;
    assert_envelope(raw("text/plain", "{\"inviteCode\": \"x\"}").await.expect("send"), 415, "unsupported_media_type")
        .await;
    let big = format!("{{\"inviteCode\": \"{}\"}}", "a".repeat(70 * 1024));
    let res = app.client.post(app.url("/auth/login")).header("content-type", "application/json").body(big).send().await;
    assert_envelope(res.expect("send"), 413, "payload_too_large").await;
    let res = app.client.get(app.url("/auth/login")).send().await.expect("get");
    assert_envelope(res, 405, "method_not_allowed").await;
    app.stop().await;
}

#[tokio::test]
async fn a_chunked_body_over_the_limit_is_413() {
    let app = spawn_app().await;
    let chunks: Vec<Result<Vec<u8>, std::io::Error>> = (0..80).map(|_| Ok(vec![b' '; 1024])).collect();
    let body = reqwest::Body::wrap_stream(futures_util::stream::iter(chunks));
    let res =
        app.client.post(app.url("/auth/login")).header("content-type", "application/json").body(body).send().await;
    assert_envelope(res.expect("send"), 413, "payload_too_large").await;
    app.stop().await;
}

/// Every `/api` route that exists, against every kind of credential.
#[tokio::test]
async fn the_auth_matrix_holds_for_every_api_route() {
    let app = spawn_app_with(|l| l.jwt_secret = Some(gtms::config::Secret::new(SECRET))).await;
    let admin = app.token(Role::Admin).await;
    let viewer = app.token(Role::Viewer).await;
    let (code, id) = app.invite(Role::Admin).await;
    let res = login(&app, serde_json::json!({ "inviteCode": code })).await;
    let revoked: String = res.json::<serde_json::Value>().await.expect("json")["token"].as_str().expect("t").to_owned();
    app.state().sessions().revoke_invite(&id, 1).await.expect("revoke");
    let now = chrono::Utc::now().timestamp();
    let sub = admin_sub(&app, &admin);
    let expired = sign(
        serde_json::json!({ "sub": sub, "role": "admin", "ver": 0, "iss": "gtms", "iat": now - 7200, "exp": now - 3600 }),
    );
    let wrong_issuer = sign(
        serde_json::json!({ "sub": sub, "role": "admin", "ver": 0, "iss": "evil", "iat": now, "exp": now + 3600 }),
    );
    let escalated = sign(
        serde_json::json!({ "sub": sub, "role": "viewer", "ver": 0, "iss": "gtms", "iat": now, "exp": now + 3600 }),
    );
    let mut tampered = admin.clone();
    let last = tampered.pop().expect("char");
    tampered.push(if last == 'A' { 'B' } else { 'A' });
    let header = b64(br#"{"alg":"none","typ":"JWT"}"#);
    let payload =
        b64(format!(r#"{{"sub":"{sub}","role":"admin","ver":0,"iss":"gtms","iat":{now},"exp":{}}}"#, now + 3600)
            .as_bytes());
    let alg_none = format!("{header}.{payload}.");

    // (path, expected for viewer) — every /api route other than the open /api/health.
    let routes = [("/api/config", 200)];
    for (path, viewer_status) in routes {
        let bearer = |t: &str| app.client.get(app.url(path)).header("authorization", format!("Bearer {t}"));
        for (what, req) in [
            ("none", app.client.get(app.url(path))),
            ("malformed", bearer("abc")),
            ("tampered", bearer(&tampered)),
            ("alg none", bearer(&alg_none)),
            ("expired", bearer(&expired)),
            ("wrong issuer", bearer(&wrong_issuer)),
            ("role not matching the invite", bearer(&escalated)),
            ("revoked invite", bearer(&revoked)),
            ("basic scheme", app.client.get(app.url(path)).header("authorization", "Basic YTpi")),
        ] {
            let res = req.send().await.expect("send");
            assert_eq!(res.status(), 401, "{path} {what}");
            assert_envelope(res, 401, "unauthorized").await;
        }
        assert_eq!(bearer(&viewer).send().await.expect("send").status(), viewer_status, "{path} viewer");
        assert_eq!(bearer(&admin).send().await.expect("send").status(), 200, "{path} admin bearer");
        let cookie = app.client.get(app.url(path)).header("cookie", format!("gtms_session={admin}")).send().await;
        assert_eq!(cookie.expect("send").status(), 200, "{path} admin cookie");
    }
    app.stop().await;
}

fn admin_sub(app: &TestApp, token: &str) -> String {
    app.state().sessions().authenticate(token).expect("valid").sub
}

#[tokio::test]
async fn the_role_filter_refuses_viewers_on_admin_routes_with_403() {
    let app = spawn_app().await;
    let viewer = app.token(Role::Viewer).await;
    let admin = app.token(Role::Admin).await;
    let route = warp::path!("write")
        .and(gtms::http::session::require(app.state().clone(), Role::Admin))
        .map(|_| "ok")
        .recover(gtms::http::error::recover);

    let as_viewer =
        warp::test::request().path("/write").header("authorization", format!("Bearer {viewer}")).reply(&route).await;
    let as_admin =
        warp::test::request().path("/write").header("authorization", format!("Bearer {admin}")).reply(&route).await;

    assert_eq!(as_viewer.status(), 403);
    let body: serde_json::Value = serde_json::from_slice(as_viewer.body()).expect("json");
    assert_eq!(body["error"], "forbidden");
    assert_eq!(as_admin.status(), 200);
    app.stop().await;
}

#[tokio::test]
async fn sessions_survive_a_restart_with_the_generated_secret() {
    let dir = tempfile::tempdir().expect("dir");
    let data = dir.path().join("gtms.redb");
    let token = {
        let server = crate::helpers::Binary::serve(&data, &[]);
        let code = server.demo_invite_code();
        let client = reqwest::Client::new();
        let res = client
            .post(format!("{}/auth/login", server.base))
            .json(&serde_json::json!({ "inviteCode": code }))
            .send()
            .await;
        let token = res.expect("login").json::<serde_json::Value>().await.expect("json")["token"]
            .as_str()
            .expect("t")
            .to_owned();
        assert_eq!(server.terminate().0, Some(0));
        token
    };
    let server = crate::helpers::Binary::serve(&data, &[]);
    assert!(!server.log().contains("admin invite code"), "the demo code is printed on the first start only");
    let res = reqwest::Client::new()
        .get(format!("{}/api/config", server.base))
        .header("authorization", format!("Bearer {token}"))
        .send()
        .await
        .expect("config");
    assert_eq!(res.status(), 200);
    let (_, log) = server.terminate();
    assert!(!log.contains(&token), "tokens never reach the log");
}

/// One clock: the app started on a `ManualClock` stamps what it writes with it and expires its
/// session tokens by it (not by the machine's time).
#[tokio::test]
async fn the_injected_clock_stamps_writes_and_expires_sessions() {
    let clock = std::sync::Arc::new(gtms::clock::ManualClock::at(1_900_000_000));
    let app = crate::helpers::spawn_app_with_clock(clock.clone(), |_| {}).await;
    let admin = app.token(Role::Admin).await;
    let body = serde_json::json!({"scope": "org", "key": "clock", "value": "v"});
    let res = crate::memory::write(&app, &admin, body).await;
    assert_eq!(res.status(), 201);
    let entry: serde_json::Value = res.json().await.expect("json");
    assert_eq!(entry["updatedAt"], "2030-03-17T17:46:40.000Z", "{entry}");
    let me = || app.authed(reqwest::Method::GET, "/api/workers", &admin).send();
    clock.advance(gtms::auth::sessions::SESSION_SECS as u64 - 1);
    assert_eq!(me().await.expect("get").status(), 200);
    clock.advance(1);
    assert_envelope(me().await.expect("get"), 401, "unauthorized").await;
    app.stop().await;
}
