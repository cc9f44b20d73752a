//! The console's routes (`http/console`) in the route table: pages for a person's browser and
//! the forms they post. Signed out, a page answers 303 to /app/login. The forms post urlencoded
//! bodies and answer 303 or the page with the form's problems (HTML, with the API's status), so
//! they are not fuzzed as API routes.

use std::collections::BTreeMap;

use super::Method::{Get, Post};
use super::table::HTML;
use super::{Content, Route, schema};

const CONSOLE: &str = "console";

/// The console's form posts.
const FORM: &str = "application/x-www-form-urlencoded";

/// Why the console's form posts are not fuzzed.
const CONSOLE_FORM: &str = "an HTML form for a browser; the API route behind it is fuzzed";

pub(super) static CONSOLE_ROUTES: &[Route] = &[
    Route::new(Get, "/app", "consoleHome", "The console: on to the deals board, or to sign-in")
        .tag(CONSOLE)
        .success(&[303]),
    Route::new(Get, "/app/login", "consoleLogin", "The console's sign-in form").tag(CONSOLE).content(HTML),
    Route::new(Post, "/app/login", "consoleSignIn", "Sign in with an invite code (sets the session cookie)")
        .body_as(FORM, schema::<BTreeMap<String, String>>)
        .tag(CONSOLE)
        .content(HTML)
        .success(&[303])
        .errors(&[401, 403])
        .no_fuzz(CONSOLE_FORM),
    Route::new(Post, "/app/logout", "consoleSignOut", "Sign out (clears the session cookie)")
        .tag(CONSOLE)
        .success(&[303])
        .no_fuzz(CONSOLE_FORM),
    Route::new(Get, "/app/deals", "consoleDeals", "The pipeline summary over the deals board, or the filtered list")
        .tag(CONSOLE)
        .content(HTML)
        .success(&[200, 303]),
    Route::new(Post, "/app/deals", "consoleCreateDeal", "Create a deal from the form (admin)")
        .body_as(FORM, schema::<BTreeMap<String, String>>)
        .tag(CONSOLE)
        .content(HTML)
        .success(&[303])
        .errors(&[403, 404, 409, 422])
        .no_fuzz(CONSOLE_FORM),
    Route::new(Post, "/app/deals/import", "consoleImportDeals", "Import deals from pasted CSV, or a dry run (admin)")
        .body_as(FORM, schema::<BTreeMap<String, String>>)
        .tag(CONSOLE)
        .content(HTML)
        .errors(&[403, 413, 422])
        .no_fuzz(CONSOLE_FORM),
    Route::new(Get, "/app/deals/{id}", "consoleDeal", "A deal with its history")
        .tag(CONSOLE)
        .content(HTML)
        .success(&[200, 303])
        .no_fuzz("its 404 is an HTML page for a person, not the JSON envelope"),
    Route::new(Post, "/app/deals/{id}/move", "consoleMoveDeal", "Move a deal to a later stage (admin)")
        .body_as(FORM, schema::<BTreeMap<String, String>>)
        .tag(CONSOLE)
        .success(&[303])
        .errors(&[403, 409])
        .no_fuzz(CONSOLE_FORM),
    Route::new(Get, "/app/approvals", "consoleApprovals", "The inbox of pending approvals")
        .tag(CONSOLE)
        .content(HTML)
        .success(&[200, 303]),
    Route::new(Post, "/app/approvals", "consoleDecide", "Approve or reject one approval or a selection (admin)")
        .body_as(FORM, schema::<BTreeMap<String, String>>)
        .tag(CONSOLE)
        .content(HTML)
        .success(&[303])
        .errors(&[403, 409])
        .no_fuzz(CONSOLE_FORM),
    Route::new(
        Get,
        "/app/audit",
        "consoleAudit",
        "The audit log, newest first, filtered by action, actor or target (admin)",
    )
    .tag(CONSOLE)
    .content(HTML)
    .success(&[200, 303])
    .errors(&[400, 403]),
    Route::new(Get, "/app/chat", "consoleChat", "The signed-in person's Brain thread and message box")
        .tag(CONSOLE)
        .content(HTML)
        .success(&[200, 303]),
    Route::new(Post, "/app/chat", "consoleSendChat", "Send a message to the Brain (answered on the thread)")
        .body_as(FORM, schema::<BTreeMap<String, String>>)
        .tag(CONSOLE)
        .content(HTML)
        .success(&[303])
        .errors(&[400, 403, 413, 503])
        .no_fuzz(CONSOLE_FORM),
    Route::new(Get, "/app/chat/clear", "consoleConfirmClearChat", "Asks before clearing the chat history")
        .tag(CONSOLE)
        .content(HTML)
        .success(&[200, 303]),
    Route::new(Post, "/app/chat/clear", "consoleClearChat", "Clear the signed-in person's chat history")
        .body_as(FORM, schema::<BTreeMap<String, String>>)
        .tag(CONSOLE)
        .success(&[303])
        .errors(&[403])
        .no_fuzz(CONSOLE_FORM),
    Route::new(Get, "/app/workers", "consoleWorkers", "The eight workers with their status and current task")
        .tag(CONSOLE)
        .content(HTML)
        .success(&[200, 303]),
    Route::new(
        Get,
        "/app/workers/{id}",
        "consoleWorker",
        "A worker: status, memory health, live workflows, start forms",
    )
    .tag(CONSOLE)
    .content(HTML)
    .success(&[200, 303])
    .no_fuzz("its 404 is an HTML page for a person, not the JSON envelope"),
    Route::new(Post, "/app/workers/{id}/start", "consoleStartWorkflow", "Start a workflow on the worker (admin)")
        .body_as(FORM, schema::<BTreeMap<String, String>>)
        .tag(CONSOLE)
        .content(HTML)
        .success(&[303])
        .errors(&[400, 403, 404, 409, 422])
        .no_fuzz(CONSOLE_FORM),
    Route::new(Post, "/app/workers/{id}/pause", "consolePauseWorker", "Pause the worker, with a reason (admin)")
        .body_as(FORM, schema::<BTreeMap<String, String>>)
        .tag(CONSOLE)
        .content(HTML)
        .success(&[303])
        .errors(&[400, 403, 404])
        .no_fuzz(CONSOLE_FORM),
    Route::new(Post, "/app/workers/{id}/resume", "consoleResumeWorker", "Resume the paused worker (admin)")
        .body_as(FORM, schema::<BTreeMap<String, String>>)
        .tag(CONSOLE)
        .content(HTML)
        .success(&[303])
        .errors(&[400, 403, 404])
        .no_fuzz(CONSOLE_FORM),
    Route::new(Post, "/app/workers/{id}/budget", "consoleSetWorkerBudget", "Set the worker's token budget (admin)")
        .body_as(FORM, schema::<BTreeMap<String, String>>)
        .tag(CONSOLE)
        .content(HTML)
        .success(&[303])
        .errors(&[400, 403, 404])
        .no_fuzz(CONSOLE_FORM),
    Route::new(
        Post,
        "/app/workers/{id}/cancel",
        "consoleCancelWorkflows",
        "Cancel one live workflow of the worker (`workflow`), or all of them, with a reason (admin)",
    )
    .body_as(FORM, schema::<BTreeMap<String, String>>)
    .tag(CONSOLE)
    .content(HTML)
    .success(&[303])
    .errors(&[400, 403, 404, 409])
    .no_fuzz(CONSOLE_FORM),
    Route::new(Get, "/app/metrics", "consoleMetrics", "The four metric views as charts")
        .tag(CONSOLE)
        .content(HTML)
        .success(&[200, 303]),
    Route::new(Get, "/app/memory", "consoleMemory", "The memory tree by scope, with word search (`q`, `scope`)")
        .tag(CONSOLE)
        .content(HTML)
        .success(&[200, 303])
        .no_fuzz("a query without a word is a 400 HTML page for a person, not the JSON envelope"),
    Route::new(Get, "/app/memory/entry", "consoleMemoryEntry", "One memory entry (`scope`, `key`) with its versions")
        .tag(CONSOLE)
        .content(HTML)
        .success(&[200, 303])
        .no_fuzz("its 400 and 404 are HTML pages for a person, not the JSON envelope"),
    Route::new(Post, "/app/memory/entry", "consoleEditMemory", "Save an entry at the version read (admin)")
        .body_as(FORM, schema::<BTreeMap<String, String>>)
        .tag(CONSOLE)
        .content(HTML)
        .success(&[303])
        .errors(&[400, 403, 404, 409, 413])
        .no_fuzz(CONSOLE_FORM),
    Route::new(Get, "/app/companies", "consoleCompanies", "Search the company directory by name, ticker or domain")
        .tag(CONSOLE)
        .content(HTML)
        .success(&[200, 303]),
    Route::new(Get, "/app/companies/{slug}", "consoleCompany", "A company's card with its receipts")
        .tag(CONSOLE)
        .content(HTML)
        .success(&[200, 303])
        .no_fuzz("its 404 is an HTML page for a person, not the JSON envelope"),
    Route::new(Post, "/app/companies/{slug}/deal", "consoleAddToPipeline", "Create a deal for the company (admin)")
        .body_as(FORM, schema::<BTreeMap<String, String>>)
        .tag(CONSOLE)
        .content(HTML)
        .success(&[303])
        .errors(&[403, 404, 409, 422])
        .no_fuzz(CONSOLE_FORM),
    Route::new(Get, "/app/assets/console.css", "consoleStylesheet", "The console's stylesheet")
        .tag(CONSOLE)
        .content(Content::File("text/css; charset=utf-8", None)),
    Route::new(Get, "/app/assets/console.js", "consoleScript", "The console's script")
        .tag(CONSOLE)
        .content(Content::File("text/javascript; charset=utf-8", None)),
];
