//! The markup of the memory pages: the tree with the search form and its results, one entry
//! with its versions and (for admins) its edit form, and the conflict of a stale edit.

use maud::{Markup, html};

use super::super::layout::field_error;
use super::entry_url;
use crate::memory::{KeyHistory, MemoryEntry, ScopeTree, SearchResults, Tree};

/// A scope with at most this many keys is shown open in the tree.
const OPEN_KEYS: usize = 20;
/// Characters of a value a search result shows.
const SNIPPET_CHARS: usize = 160;

/// The search form as sent, and what it found or why it could not.
#[derive(Default)]
pub struct Search {
    pub q: String,
    pub scope: String,
    pub results: Option<SearchResults>,
    pub problem: Option<String>,
}

/// The edit form: the value as shown or typed, the version it was read at, and its problem.
pub struct Edit {
    pub value: String,
    pub version: u64,
    pub problem: Option<String>,
}

impl Edit {
    pub fn of(entry: &MemoryEntry) -> Edit {
        Edit { value: entry.value.clone(), version: entry.version, problem: None }
    }
}

/// A stale edit: what was typed at which version, and what is stored now (none when
/// compression folded the entry away).
pub struct Conflict {
    pub scope: String,
    pub key: String,
    pub yours: String,
    pub seen: u64,
    pub theirs: Option<MemoryEntry>,
    /// The version a re-applied edit names (theirs, or 0 when there is none).
    pub version: u64,
}

fn group_of(scope: &str) -> usize {
    match scope.split_once(':') {
        Some(("team", _)) => 1,
        Some(("worker", _)) => 2,
        _ => 0,
    }
}

pub fn tree(tree: &Tree, search: &Search) -> Markup {
    html! {
        h1 { "Memory" }
        p.hint #memory-total { (tree.total_entries) " entries in " (tree.scopes.len()) " scopes." }
        (search_form(tree, search))
        @if let Some(found) = &search.results { (results(found)) }
        div #memory-tree {
            @for (group, title) in [(0, "Organisation"), (1, "Teams"), (2, "Workers")] {
                @let scopes: Vec<&ScopeTree> = tree.scopes.iter().filter(|s| group_of(&s.scope) == group).collect();
                section.scope-group aria-labelledby={ "group-" (group) } {
                    h2 id={ "group-" (group) } { (title) }
                    @if scopes.is_empty() { p.hint { "No entries yet." } }
                    @for scope in scopes { (scope_tree(scope)) }
                }
            }
        }
    }
}

fn scope_tree(scope: &ScopeTree) -> Markup {
    html! {
        details.scope data-scope=(scope.scope) open[scope.keys.len() <= OPEN_KEYS] {
            summary {
                code { (scope.scope) } " "
                span.count { (scope.entries) " " (if scope.entries == 1 { "entry" } else { "entries" }) " · ~" (scope.tokens) " tokens" }
            }
            ul.keys {
                @for key in &scope.keys {
                    li {
                        a href=(entry_url(&scope.scope, &key.key)) { (key.key) }
                        " " span.meta { "v" (key.version) " · " (key.size) " bytes" @if key.pinned { " · pinned" } }
                    }
                }
            }
        }
    }
}

fn search_form(tree: &Tree, search: &Search) -> Markup {
    let problem = search.problem.as_ref();
    html! {
        form.toolbar #memory-search method="get" action="/app/memory" role="search" aria-label="Search memory" {
            label for="memory-q" { "Search" }
            input #memory-q type="search" name="q" value=(search.q) maxlength="200"
                aria-invalid=[problem.map(|_| "true")] aria-describedby=[problem.map(|_| "memory-q-error")];
            label for="memory-scope" { "in" }
            select #memory-scope name="scope" {
                option value="" { "every scope" }
                @for s in &tree.scopes { option value=(s.scope) selected[search.scope == s.scope] { (s.scope) } }
            }
            button type="submit" { "Search" }
            (field_error("memory-q-error", problem))
        }
    }
}

fn snippet(value: &str) -> String {
    let mut out: String = value.chars().take(SNIPPET_CHARS).collect();
    if out.len() < value.len() {
        out.push('…');
    }
    out
}

fn results(found: &SearchResults) -> Markup {
    html! {
        section #memory-results aria-labelledby="results-title" {
            h2 #results-title { @if !found.total_exact { "At least " } (found.total) " found for “" (found.query) "”" @if found.total > found.results.len() { " (the best " (found.results.len()) " shown)" } }
            @if found.results.is_empty() { p { "Nothing in memory has those words." } }
            ol.hits {
                @for hit in &found.results {
                    li {
                        a href=(entry_url(&hit.entry.scope, &hit.entry.key)) { code { (hit.entry.scope) "/" (hit.entry.key) } }
                        " " span.meta { "v" (hit.entry.version) }
                        p.snippet { (snippet(&hit.entry.value)) }
                    }
                }
            }
        }
    }
}

/// A textarea's content: a line break right after `<textarea>` is dropped by the parser, so one
/// is always written and a value that starts with its own survives.
fn textarea_text(value: &str) -> String {
    format!("\n{value}")
}

pub fn entry(entry: &MemoryEntry, history: &KeyHistory, edit: Option<&Edit>, saved: Option<u64>) -> Markup {
    html! {
        p { a href="/app/memory" { "← Memory" } }
        h1 { code { (entry.scope) "/" (entry.key) } }
        @if let Some(version) = saved { p.done #saved role="status" { "Saved as version " (version) "." } }
        dl.facts {
            dt { "Scope" } dd { (entry.scope) }
            dt { "Version" } dd #entry-version { (entry.version) }
            dt { "Updated" } dd { time { (entry.updated_at) } " by " (entry.author) }
            dt { "Created" } dd { time { (entry.created_at) } }
            dt { "Pinned" } dd { @if entry.pinned { "yes (never compressed)" } @else { "no" } }
            dt { "Tags" } dd { @if entry.tags.is_empty() { "none" } @else { (entry.tags.join(", ")) } }
        }
        h2 { "Value" }
        pre.value #entry-value { (entry.value) }
        @if let Some(edit) = edit { (edit_form(entry, edit)) }
        h2 #versions-title { "Versions" }
        table #versions aria-labelledby="versions-title" {
            caption { (history.total) " " (if history.total == 1 { "version" } else { "versions, newest first" }) }
            thead { tr { th scope="col" { "Version" } th scope="col" { "State" } th scope="col" { "Written" } th scope="col" { "By" } th scope="col" { "Value" } } }
            tbody {
                @for v in history.versions.iter().rev() {
                    tr data-version=(v.entry.version) {
                        td data-label="Version" { (v.entry.version) } td data-label="State" { (v.state) }
                        td data-label="Written" { time { (v.entry.updated_at) } } td data-label="By" { (v.entry.author) }
                        td data-label="Value" { pre.value { (v.entry.value) } }
                    }
                }
            }
        }
    }
}

fn edit_form(entry: &MemoryEntry, edit: &Edit) -> Markup {
    let problem = edit.problem.as_ref();
    html! {
        form.card.wide #edit-entry method="post" action="/app/memory/entry" {
            h2 { "Edit" }
            input type="hidden" name="scope" value=(entry.scope);
            input type="hidden" name="key" value=(entry.key);
            input type="hidden" name="version" value=(edit.version);
            div.field {
                label for="edit-value" { "New value (you are editing version " (edit.version) ")" }
                textarea #edit-value name="value" rows="8" aria-invalid=[problem.map(|_| "true")]
                    aria-describedby=[problem.map(|_| "edit-value-error")] { (textarea_text(&edit.value)) }
                (field_error("edit-value-error", problem))
            }
            button type="submit" { "Save" }
        }
    }
}

pub fn conflict(c: &Conflict) -> Markup {
    let back = entry_url(&c.scope, &c.key);
    html! {
        p { a href=(back) { "← " (c.scope) "/" (c.key) } }
        h1 { "It changed while you were editing" }
        p.error #conflict role="alert" {
            "You edited version " (c.seen) " of " code { (c.scope) "/" (c.key) } ", but "
            @match &c.theirs {
                Some(t) => { "version " (t.version) " is stored now (by " (t.author) "). Nothing of yours was saved." },
                None => { "it is no longer stored (compression folded it into a summary). Nothing of yours was saved." },
            }
        }
        div.compare {
            section.yours aria-labelledby="yours-title" {
                h2 #yours-title { "Yours (not saved)" }
                pre.value #yours { (c.yours) }
            }
            section.theirs aria-labelledby="theirs-title" {
                @match &c.theirs {
                    Some(t) => {
                        h2 #theirs-title { "Theirs: version " (t.version) }
                        p.meta { "Written " time { (t.updated_at) } " by " (t.author) }
                        pre.value #theirs { (t.value) }
                    },
                    None => {
                        h2 #theirs-title { "Theirs" }
                        p #theirs { "No longer stored." }
                    },
                }
            }
        }
        form.card.wide #reapply method="post" action="/app/memory/entry" {
            h2 { "Save yours anyway" }
            p.hint { "Saving replaces what is stored now; change the text first to merge the two." }
            input type="hidden" name="scope" value=(c.scope);
            input type="hidden" name="key" value=(c.key);
            input type="hidden" name="version" value=(c.version);
            div.field {
                label for="reapply-value" { "Value to save over " @if c.theirs.is_some() { "version " (c.version) } @else { "nothing" } }
                textarea #reapply-value name="value" rows="8" { (textarea_text(&c.yours)) }
            }
            button type="submit" { "Save mine" }
        }
        p { a #keep-theirs href=(back) { "Keep theirs (discard mine)" } }
    }
}
