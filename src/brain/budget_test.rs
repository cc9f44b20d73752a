//! The Brain's context stays within its budget however much memory there is: 30,000 org
//! entries, a team's and workers' entries and a 500-message history give a bounded prompt
//! that still holds the entries relevant to the question (sizes asserted, never timings).

use futures_util::future::join_all;

use super::chat::{HISTORY_LIMIT, ORG_BUDGET_TOKENS, TEAM_BUDGET_TOKENS, chat, summarize};
use crate::auth::Principal;
use crate::companies::directory::Directory;
use crate::domain::{Role, TeamId};
use crate::store::{ChatRecord, MemoryWrite, Store};

fn write(scope: &str, key: String, value: String) -> MemoryWrite {
    MemoryWrite {
        scope: scope.into(),
        key,
        value,
        pinned: None,
        tags: None,
        if_version: None,
        author: "test".into(),
        now_ms: 1,
    }
}

async fn fill(store: &Store, scope: &str, n: usize) {
    for chunk in (0..n).collect::<Vec<_>>().chunks(5_000) {
        let writes = chunk.iter().map(|i| {
            let value = format!("a durable memory write number {i} about accounts and renewals");
            store.write_memory(write(scope, format!("bench-{i}"), value))
        });
        for outcome in join_all(writes).await {
            outcome.expect("write");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_context_stays_within_budget_with_30k_org_entries_and_500_messages() {
    let dir = tempfile::tempdir().expect("dir");
    let store = Store::open(&dir.path().join("gtms.redb")).expect("open");
    fill(&store, "org", 30_000).await;
    fill(&store, "team:sales", 2_000).await;
    fill(&store, "worker:sdr", 2_000).await;
    for (scope, key, value) in [
        ("org", "pricing", "Pricing objections: answer with the ROI calculator"),
        ("team:sales", "pricing-playbook", "Sales handles pricing objections with a discount ladder"),
        ("worker:sdr", "pricing-notes", "Prospects raise pricing objections in the second call"),
    ] {
        store.write_memory(write(scope, key.into(), value.into())).await.expect("write");
    }
    let history: Vec<ChatRecord> = (0..HISTORY_LIMIT)
        .map(|i| ChatRecord {
            role: if i % 2 == 0 { "user" } else { "assistant" }.into(),
            content: format!("message {i} of a long conversation about accounts"),
            at_ms: i as i64,
            unanswered: false,
            tokens_used: 0,
        })
        .collect();
    store.append_chat("u1", history, HISTORY_LIMIT, summarize, None).await.expect("history");
    // Reopened, so the index is the one built from the file, not the one kept by the writes.
    drop(store);
    let store = Store::open(&dir.path().join("gtms.redb")).expect("reopen");
    assert_eq!(store.memory_index().len(), 34_003);

    let llm =
        super::Llm::from_settings(&crate::config::LlmLayer::default().validate().expect("demo"), store.clock().clone())
            .expect("demo model");
    let directory = Directory::embedded().expect("dir");
    let principal = Principal {
        sub: "u1".into(),
        role: Role::Viewer,
        name: "u".into(),
        team: TeamId::parse("sales").ok(),
        origin: Default::default(),
    };
    let reply = chat(
        &store,
        &llm,
        &directory,
        &principal,
        "What do we know about pricing objections?",
        &Default::default(),
        &crate::config::BudgetLayer::default().validate().expect("defaults"),
    )
    .await
    .expect("chat");

    for cite in ["[org/pricing@1]", "[team:sales/pricing-playbook@1]", "[worker:sdr/pricing-notes@1]"] {
        assert!(reply.response.contains(cite), "{cite} missing from {}", reply.response);
    }
    // Instructions, org and team budgets, five worker lines, 3,000 tokens of history, the answer.
    let ceiling = ORG_BUDGET_TOKENS + TEAM_BUDGET_TOKENS + 5 * 150 + 3_000 + 200 + 1_024;
    assert!(reply.tokens_used <= ceiling, "{} tokens used, ceiling {ceiling}", reply.tokens_used);
    assert!(reply.tokens_used >= ORG_BUDGET_TOKENS, "the budget is used, not starved: {}", reply.tokens_used);
}
