//! The console's `/app/chat`: over HTTP (sign-in redirect, a message posted as a form and
//! answered, the Origin check, an empty message's inline problem, clearing after the
//! confirmation page, a failed model call answered 503 with the typed message kept), and in
//! real Chromium against a model that fails once: the message is kept and offered again, then
//! the answer — Markdown with a hostile link and markup — appears without a reload, rendered
//! safely with its tokens, and the history is cleared after confirming.

use std::sync::Arc;
use std::sync::atomic::{AtomicU16, Ordering};

use gtms::domain::Role;
use reqwest::Method;
use serde_json::{Value, json};

use crate::brain::{app_with, fake_model_answering, openai_layer};
use crate::browser::browser;
use crate::console::{no_redirects, post_form};
use crate::helpers::TestApp;

/// What the fake model answers: Markdown with a safe link, a hostile one and raw HTML.
const ANSWER: &str = "**Pipeline**: 3 open deals.\n\n- See [the filing](https://www.sec.gov/Archives/x.htm)\n- Not [this](javascript:alert(1))\n\n<script>window.pwned = true</script>";

fn model_reply() -> Value {
    json!({
        "model": "big-model",
        "choices": [{ "message": { "role": "assistant", "content": ANSWER } }],
        "usage": { "prompt_tokens": 1200, "completion_tokens": 34 }
    })
}

/// An app whose model answers with `status` (500 until the test says otherwise).
async fn app_with_model(status: u16) -> (TestApp, Arc<AtomicU16>) {
    let status = Arc::new(AtomicU16::new(status));
    let (base, _) = fake_model_answering("/v1/chat/completions", status.clone(), model_reply()).await;
    (app_with(Some(openai_layer(&base))).await, status)
}

async fn page_of(app: &TestApp, token: &str, path: &str) -> (u16, String) {
    let res = no_redirects().get(app.url(path)).header("cookie", format!("gtms_session={token}")).send().await;
    let res = res.expect("get");
    (res.status().as_u16(), res.text().await.expect("body"))
}

#[tokio::test]
async fn chat_posts_answer_keep_a_failed_message_and_clear_after_confirming() {
    let (app, status) = app_with_model(500).await;
    let own = app.base.clone();
    let viewer = app.token(Role::Viewer).await;

    let res = no_redirects().get(app.url("/app/chat")).send().await.expect("get");
    assert_eq!(
        (res.status().as_u16(), res.headers()["location"].to_str().ok()),
        (303, Some("/app/login?next=%2Fapp%2Fchat"))
    );

    // The model fails: 503, the typed message kept in the box, offered again; stored unanswered.
    let failed = post_form(&app, "/app/chat", &viewer, Some(&own), &[("message", "How is the <b>pipeline</b>?")]).await;
    assert_eq!(failed.status(), 503);
    let body = failed.text().await.expect("body");
    assert!(body.contains(">How is the &lt;b&gt;pipeline&lt;/b&gt;?</textarea>"), "the message is kept: {body}");
    assert!(body.contains("Send again") && body.contains("The model did not answer"), "{body}");
    assert!(body.contains("not answered"), "the thread shows the unanswered question");

    // A viewer chats (the thread is their own); the answer is on the page, rendered safely.
    status.store(200, Ordering::SeqCst);
    let sent = post_form(&app, "/app/chat", &viewer, Some(&own), &[("message", "How is the pipeline?")]).await;
    assert_eq!((sent.status().as_u16(), sent.headers()["location"].to_str().ok()), (303, Some("/app/chat#latest")));
    let (code, body) = page_of(&app, &viewer, "/app/chat").await;
    assert_eq!(code, 200);
    assert!(body.contains("<strong>Pipeline</strong>") && body.contains("1234 tokens"), "{body}");
    assert!(body.contains(r#"href="https://www.sec.gov/Archives/x.htm""#), "{body}");
    assert!(!body.contains("href=\"javascript") && !body.contains("<script>window"), "{body}");
    assert!(body.contains("&lt;script&gt;"), "raw HTML shown as text");
    let history = app.get_json(&viewer, "/api/brain/history").await;
    assert_eq!(history["messages"].as_array().map(Vec::len), Some(3));
    assert_eq!(history["messages"][2]["tokensUsed"], 1234, "{history}");

    // Refused: no Origin, a foreign one, an empty message (400, inline).
    for origin in [None, Some("http://evil.example")] {
        let res = post_form(&app, "/app/chat", &viewer, origin, &[("message", "hi")]).await;
        assert_eq!(res.status(), 403, "{origin:?}");
    }
    let empty = post_form(&app, "/app/chat", &viewer, Some(&own), &[("message", "   ")]).await;
    assert_eq!(empty.status(), 400);
    assert!(empty.text().await.expect("body").contains("id=\"message-error\""));
    let count = |h: &Value| h["messages"].as_array().map_or(0, Vec::len);
    assert_eq!(count(&app.get_json(&viewer, "/api/brain/history").await), 3, "nothing stored by a refusal");

    // Clearing asks first, then clears only on the confirmed post.
    let (code, body) = page_of(&app, &viewer, "/app/chat/clear").await;
    assert_eq!(code, 200);
    assert!(body.contains("Clear 3 messages"), "{body}");
    let cleared = post_form(&app, "/app/chat/clear", &viewer, Some(&own), &[("confirm", "yes")]).await;
    assert_eq!(cleared.headers()["location"], "/app/chat?cleared=1");
    assert_eq!(count(&app.get_json(&viewer, "/api/brain/history").await), 0);
    let (_, body) = page_of(&app, &viewer, "/app/chat?cleared=1").await;
    assert!(body.contains("Your history is cleared"));
    let api = app.authed(Method::GET, "/api/brain/history", &viewer).send().await.expect("get");
    assert_eq!(api.status(), 200);
    app.stop().await;
}

#[tokio::test]
async fn a_person_chats_in_chromium_retries_a_failed_answer_and_clears_the_history() {
    let (app, status) = app_with_model(500).await;
    let (code, _) = app.invite(Role::Viewer).await;
    let shots = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/console");
    std::fs::create_dir_all(&shots).expect("screenshot dir");
    let dir = tempfile::tempdir().expect("dir");
    let (mut chromium, mut page) = browser(&dir.path().join("profile")).await;

    page.open(&app.url("/app/chat")).await;
    page.until("location.pathname === '/app/login' && !!document.querySelector('#invite-code')", "sign-in first").await;
    page.type_into("#invite-code", &code).await;
    page.click("form.card button[type=submit]").await;
    page.until("location.pathname === '/app/chat' && !!document.querySelector('#message')", "the chat").await;
    // A marker that a reload would lose: the answers below arrive without one.
    page.eval("window.sameDocument = true").await;

    page.type_into("#message", "How is the pipeline?").await;
    page.click("#send").await;
    page.until("!!document.querySelector('#message-error')", "the failed call's message").await;
    assert_eq!(page.eval("document.querySelector('#message').value").await, "How is the pipeline?");
    assert_eq!(page.eval("document.querySelector('#send').textContent").await, "Send again");
    for width in [375, 1440] {
        page.screenshot(width, &shots.join(format!("chat-failed-{width}.png")), true).await;
    }

    status.store(200, Ordering::SeqCst);
    page.click("#send").await;
    page.until("!!document.querySelector('#latest strong')", "the answer").await;
    assert_eq!(page.eval("window.sameDocument === true").await, true, "no reload");
    assert_eq!(page.eval("document.querySelector('#latest .tokens').textContent").await, "1234 tokens");
    let links = page.eval("[...document.querySelectorAll('#latest a')].map(a => a.href).join(' ')").await;
    assert_eq!(links, "https://www.sec.gov/Archives/x.htm", "only the https link is a link");
    assert_eq!(page.eval("window.pwned === undefined && !document.querySelector('#thread script')").await, true);
    assert_eq!(page.eval("document.querySelector('#message').value").await, "", "the box is empty again");
    for width in [375, 1440] {
        page.screenshot(width, &shots.join(format!("chat-{width}.png")), true).await;
    }

    page.click("#clear-history").await;
    page.until("!!document.querySelector('#confirm-clear')", "the confirmation").await;
    page.click("#confirm-clear").await;
    page.until("location.search === '?cleared=1' && !document.querySelector('#latest')", "the cleared thread").await;
    chromium.kill().await.expect("stop chromium");
    app.stop().await;
}
