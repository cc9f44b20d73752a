//! The console's one layout: the header (who is signed in and with which role, sign-out), the
//! navigation, the page's main part, and the error page.

use maud::{DOCTYPE, Markup, html};
use warp::http::StatusCode;

use crate::auth::Principal;

/// The console's pages, in navigation order: (path, label).
const NAV: [(&str, &str); 8] = [
    ("/app/chat", "Chat"),
    ("/app/workers", "Workers"),
    ("/app/approvals", "Approvals"),
    ("/app/deals", "Deals"),
    ("/app/memory", "Memory"),
    ("/app/metrics", "Metrics"),
    ("/app/companies", "Companies"),
    ("/status", "Status"),
];

/// The audit log's page, listed (before Status) for admins only.
const AUDIT_PATH: &str = "/app/audit";

/// A whole page: `title`, the signed-in person (none on the sign-in page), the number of
/// approvals waiting (shown beside "Approvals" when known), and `main`.
pub fn page(title: &str, who: Option<&Principal>, pending: Option<usize>, current: &str, main: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="color-scheme" content="light dark";
                title { (title) " · gtms" }
                // No icon to fetch (a browser would ask for /favicon.ico otherwise).
                link rel="icon" href="data:,";
                link rel="stylesheet" href=(super::assets::CSS_PATH);
                script src=(super::assets::JS_PATH) defer {}
            }
            body {
                a.skip href="#main" { "Skip to the content" }
                header.top {
                    a.brand href="/app/deals" { "gtms" }
                    @if let Some(who) = who {
                        nav aria-label="Console" {
                            ul {
                                @for (path, label) in NAV {
                                    @if path == "/status" && who.require_admin().is_ok() {
                                        li { a href=(AUDIT_PATH) aria-current=[(AUDIT_PATH == current).then_some("page")] { "Audit" } }
                                    }
                                    li {
                                        a href=(path) aria-current=[(path == current).then_some("page")] {
                                            (label)
                                            @if let (true, Some(n)) = (path == "/app/approvals", pending) {
                                                " " span.badge #pending-count data-count=(n) aria-label={ (n) " waiting" } { (n) }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                        div.who {
                            span #whoami { (who.name) }
                            " "
                            span.role #role data-role=(who.role.as_str()) { (who.role.as_str()) }
                            form method="post" action="/app/logout" {
                                button type="submit" #signout { "Sign out" }
                            }
                        }
                    }
                }
                main #main tabindex="-1" { (main) }
                @if who.is_some() { (shortcuts()) }
            }
        }
    }
}

/// The keyboard shortcuts (`?` opens this; the script implements them).
fn shortcuts() -> Markup {
    const KEYS: [(&str, &str); 5] = [
        ("?", "show or hide these shortcuts"),
        ("j", "next approval in the inbox"),
        ("k", "previous approval in the inbox"),
        ("a", "approve the selected approval (with its note)"),
        ("r", "reject the selected approval (with its note)"),
    ];
    html! {
        dialog #shortcuts aria-labelledby="shortcuts-title" {
            h2 #shortcuts-title { "Keyboard shortcuts" }
            dl.facts {
                @for (key, what) in KEYS {
                    dt { kbd { (key) } }
                    dd { (what) }
                }
            }
            form method="dialog" { button type="submit" { "Close" } }
        }
    }
}

/// An error page with the status and the sentence a person may see.
pub fn error_page(who: Option<&Principal>, status: StatusCode, message: &str) -> Markup {
    let title = status.canonical_reason().unwrap_or("Error");
    let main = html! {
        h1 { (status.as_u16()) " " (title) }
        p.error role="alert" { (message) }
        p { a href="/app/deals" { "Back to the console" } }
    };
    page(title, who, None, "", main)
}

/// A field's problem under its input (`id` names it for `aria-describedby`).
pub fn field_error(id: &str, problem: Option<&String>) -> Markup {
    html! {
        @if let Some(problem) = problem {
            span.field-error id=(id) role="alert" { (problem) }
        }
    }
}
