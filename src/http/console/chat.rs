//! `/app/chat`: the signed-in person's Brain thread — each answer's Markdown rendered safely
//! (`markdown`) with the tokens it used — a message box, and clearing the history after a
//! confirmation. Both roles chat (the thread is their own), through the same service as
//! `POST /api/brain/chat`. A message posts as a form (303 back to the thread); the script sends
//! it with `fetch` and swaps the thread in, so the answer appears without a reload. When the
//! model fails (503), the page keeps the typed message in the box and offers to send it again.

use maud::{Markup, html};
use warp::Filter;
use warp::http::{HeaderMap, StatusCode};

use super::layout::page;
use super::markdown;
use super::{Answer, Page, Posted, form_fields, form_post, get_page, pending, query_of, signed_in, writer};
use crate::auth::Principal;
use crate::brain::chat::{self, BrainError, ChatMessage, MAX_MESSAGE_BYTES};
use crate::http::error::ApiError;
use crate::state::AppState;

/// What the box shows after a post that did not go through: the typed message and why.
#[derive(Default)]
struct Draft {
    message: String,
    problem: Option<String>,
    /// The model failed: the button says "Send again".
    retry: bool,
}

pub fn routes(state: AppState) -> Vec<Page> {
    let s = state.clone();
    let thread = warp::path!("app" / "chat")
        .and(get_page())
        .then(move |headers: HeaderMap, here: String| {
            let state = s.clone();
            async move {
                match signed_in(&state, &headers, &here) {
                    Ok(who) => {
                        render(
                            &state,
                            &who,
                            Draft::default(),
                            query_of(&here).get("cleared").is_some_and(|v| v == "1"),
                            StatusCode::OK,
                        )
                        .await
                    }
                    Err(login) => login,
                }
            }
        })
        .boxed();
    let s = state.clone();
    let send = warp::path!("app" / "chat")
        .and(warp::post())
        .and(form_post())
        .then(move |posted: Posted| {
            let state = s.clone();
            async move { send(&state, &posted).await.unwrap_or_else(|answer| answer) }
        })
        .boxed();
    let s = state.clone();
    let confirm = warp::path!("app" / "chat" / "clear")
        .and(get_page())
        .then(move |headers: HeaderMap, _here: String| {
            let state = s.clone();
            async move {
                match signed_in(&state, &headers, "/app/chat") {
                    Ok(who) => confirm_clear(&state, &who).await,
                    Err(login) => login,
                }
            }
        })
        .boxed();
    let clear = warp::path!("app" / "chat" / "clear")
        .and(warp::post())
        .and(form_post())
        .then(move |posted: Posted| {
            let state = state.clone();
            async move {
                let who = match writer(&state, &posted, "/app/chat") {
                    Ok(who) => who,
                    Err(answer) => return answer,
                };
                match chat::clear(state.store(), &who).await {
                    Ok(_) => Answer::SeeOther("/app/chat?cleared=1".into()),
                    Err(e) => Answer::error(Some(&who), &ApiError::from(e)),
                }
            }
        })
        .boxed();
    vec![thread, send, confirm, clear]
}

async fn send(state: &AppState, posted: &Posted) -> Result<Answer, Answer> {
    let who = writer(state, posted, "/app/chat")?;
    let message = form_fields(&posted.body)?.remove("message").unwrap_or_default();
    let workspace = state.brain_workspace(&message).await;
    let reply =
        chat::chat(state.store(), state.llm(), state.directory(), &who, &message, &workspace, &state.config().budgets)
            .await;
    let e = match reply {
        Ok(_) => return Ok(Answer::SeeOther("/app/chat#latest".into())),
        Err(e) => e,
    };
    let retry = matches!(e, BrainError::Model(_));
    let problem = if retry {
        "The model did not answer. Your message is kept below and in your history, marked unanswered: send it again."
            .to_owned()
    } else {
        e.to_string()
    };
    let status = ApiError::from(e).public().0;
    let draft = Draft { message, problem: Some(problem), retry };
    Ok(render(state, &who, draft, false, status).await)
}

async fn render(state: &AppState, who: &Principal, draft: Draft, cleared: bool, status: StatusCode) -> Answer {
    let history = match chat::history(state.store(), who).await {
        Ok(history) => history,
        Err(e) => return Answer::error(Some(who), &ApiError::from(e)),
    };
    let main = html! {
        div.chat-head #chat-head {
            h1 { "Chat with the Brain" }
            @if !history.messages.is_empty() {
                a.button.secondary #clear-history href="/app/chat/clear" { "Clear history…" }
            }
        }
        @if cleared {
            p.done role="status" { "Your history is cleared; the next message starts a new conversation." }
        }
        (thread(&history.messages))
        (message_form(&draft))
    };
    Answer::Page(status, page("Chat", Some(who), pending(state).await, "/app/chat", main))
}

fn thread(messages: &[ChatMessage]) -> Markup {
    let latest = messages.iter().rposition(|m| m.role == "assistant");
    html! {
        section #thread aria-label="Conversation" aria-live="polite" data-count=(messages.len()) {
            @if messages.is_empty() {
                p.empty { "Ask about the pipeline, an account, a company's filings or what the workers are doing." }
            }
            ol.thread {
                @for (i, m) in messages.iter().enumerate() {
                    li class={ "message " (m.role) } id=[(Some(i) == latest).then_some("latest")] tabindex=[(Some(i) == latest).then_some("-1")] {
                        p.meta {
                            span.speaker { (speaker(&m.role)) }
                            " · " time datetime=(m.timestamp) { (m.timestamp.get(..16).unwrap_or(&m.timestamp).replace('T', " ")) }
                            @if let Some(tokens) = m.tokens_used { " · " span.tokens { (tokens) " tokens" } }
                            @if m.unanswered { " · " span.unanswered { "not answered" } }
                        }
                        div.body {
                            @if m.role == "user" {
                                @for line in m.content.lines() { (line) br; }
                            } @else {
                                (markdown::render(&m.content))
                            }
                        }
                    }
                }
            }
        }
    }
}

fn speaker(role: &str) -> &'static str {
    match role {
        "user" => "You",
        "assistant" => "Brain",
        _ => "Earlier conversation, summarised",
    }
}

fn message_form(draft: &Draft) -> Markup {
    html! {
        form.card #chat-form method="post" action="/app/chat" data-swap="chat-head thread chat-form" data-busy="Waiting for the answer…" {
            label for="message" { "Message" }
            textarea #message name="message" rows="3" required maxlength=(MAX_MESSAGE_BYTES)
                aria-invalid=[draft.problem.as_ref().map(|_| "true")]
                aria-describedby=[draft.problem.as_ref().map(|_| "message-error")] { (draft.message) }
            @if let Some(problem) = &draft.problem {
                span.field-error #message-error role="alert" { (problem) }
            }
            div.actions {
                button type="submit" #send { @if draft.retry { "Send again" } @else { "Send" } }
                span #chat-status role="status" {}
            }
        }
    }
}

async fn confirm_clear(state: &AppState, who: &Principal) -> Answer {
    let count = match chat::history(state.store(), who).await {
        Ok(history) => history.messages.len(),
        Err(e) => return Answer::error(Some(who), &ApiError::from(e)),
    };
    let main = html! {
        h1 { "Clear your chat history?" }
        p { "This removes the " (count) " messages of your conversation with the Brain from this page; the next message starts a new conversation. Nothing else is changed." }
        form.card method="post" action="/app/chat/clear" {
            input type="hidden" name="confirm" value="yes";
            button.danger type="submit" #confirm-clear { "Clear " (count) " messages" }
            " "
            a href="/app/chat" { "Cancel" }
        }
    };
    Answer::ok(page("Clear chat history", Some(who), pending(state).await, "/app/chat", main))
}
