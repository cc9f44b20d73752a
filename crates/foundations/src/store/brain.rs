//! The Brain's records: each user's chat thread (`BRAIN_THREADS`: conversation id and next
//! sequence number; `BRAIN_MESSAGES`: `<sub>/<seq:010>` -> `ChatRecord`), the messages folded
//! out of a thread that grew past its limit (`BRAIN_ARCHIVE`, same keys: kept, never dropped),
//! and the model-call ledger (`MODEL_CALLS`), which also adds a `TokenRecord` to `TOKENS` so
//! the token metrics count every call. Invariant: a thread holds at most `limit` messages after
//! any write, the first of which may be the summary of everything folded before it.

use redb::{ReadableDatabase, ReadableTable, WriteTransaction};
use serde::{Deserialize, Serialize};

use super::tables::{BRAIN_ARCHIVE, BRAIN_MESSAGES, BRAIN_THREADS, MODEL_CALLS, TOKENS};
use super::{Store, StoreError, TokenRecord, codec};

pub const SUMMARY_ROLE: &str = "summary";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatRecord {
    /// `user`, `assistant` or `summary`.
    pub role: String,
    pub content: String,
    /// Unix milliseconds.
    pub at_ms: i64,
    /// A user message the model never answered (provider error or timeout).
    pub unanswered: bool,
    /// Input plus output tokens of the model call that wrote this answer; 0 for a question, a
    /// summary, or an answer stored before schema version 5.
    pub tokens_used: u64,
}

/// `ChatRecord` as versions 1 to 4 wrote it (no `tokens_used`).
#[derive(Deserialize)]
struct ChatRecordV4 {
    role: String,
    content: String,
    at_ms: i64,
    unanswered: bool,
}

impl codec::Record for ChatRecord {
    /// Versions 1 to 4 did not record the tokens of an answer (0: not known).
    fn upgrade(_version: u8, body: &[u8]) -> Result<Self, codec::CodecError> {
        let ChatRecordV4 { role, content, at_ms, unanswered } = codec::decode_body(body)?;
        Ok(ChatRecord { role, content, at_ms, unanswered, tokens_used: 0 })
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThreadRecord {
    pub conversation_id: String,
    pub next_seq: u64,
}

/// One model call of the token ledger.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelCall {
    pub at_ms: i64,
    /// `user:<sub>` or a worker id.
    pub who: String,
    pub model: String,
    /// `research`, `content` or `fast`.
    pub task: String,
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cost_micros: u64,
}

/// Builds the summary that replaces `folded` (oldest first), given the previous summary.
pub type Summarize = fn(Option<&ChatRecord>, &[ChatRecord], i64) -> ChatRecord;

fn thread_range(sub: &str) -> (String, String) {
    (format!("{sub}/"), format!("{sub}0"))
}

fn read_thread(db: &redb::Database, sub: &str) -> Result<(Option<ThreadRecord>, Vec<ChatRecord>), StoreError> {
    let txn = db.begin_read()?;
    let thread = match txn.open_table(BRAIN_THREADS)?.get(sub)? {
        Some(v) => Some(codec::decode(v.value())?),
        None => None,
    };
    let (start, end) = thread_range(sub);
    let table = txn.open_table(BRAIN_MESSAGES)?;
    let mut out = Vec::new();
    for entry in table.range(start.as_str()..end.as_str())? {
        out.push(codec::decode(entry?.1.value())?);
    }
    Ok((thread, out))
}

/// Writes one model call into the ledger, the token table and the spend, in `txn`.
fn record_call(txn: &WriteTransaction, call: &ModelCall) -> Result<(), StoreError> {
    let id = format!("{:013}/{}", call.at_ms, uuid::Uuid::new_v4().simple());
    let date = chrono::DateTime::from_timestamp_millis(call.at_ms)
        .map(|t| t.format("%Y-%m-%d").to_string())
        .unwrap_or_default();
    let worker = if call.who.starts_with("user:") { "brain".to_owned() } else { call.who.clone() };
    let tokens = TokenRecord {
        date: date.clone(),
        worker,
        model: call.model.clone(),
        input_tokens: call.input_tokens,
        output_tokens: call.output_tokens,
        cost_micros: call.cost_micros,
    };
    txn.open_table(TOKENS)?.insert(format!("{date}/m{id}").as_str(), codec::encode(&tokens)?.as_slice())?;
    txn.open_table(MODEL_CALLS)?.insert(id.as_str(), codec::encode(call)?.as_slice())?;
    super::spend::count(txn, call)?;
    Ok(())
}

/// Appends `records` to the thread of `sub` and folds the oldest messages into the summary
/// while the thread is over `limit` (the summary stamped `now_ms`); returns the conversation id.
fn append(
    txn: &WriteTransaction,
    sub: &str,
    records: &[ChatRecord],
    limit: usize,
    summarize: Summarize,
    now_ms: i64,
) -> Result<String, StoreError> {
    let mut threads = txn.open_table(BRAIN_THREADS)?;
    let mut thread: ThreadRecord = match threads.get(sub)? {
        Some(v) => codec::decode(v.value())?,
        None => ThreadRecord { conversation_id: uuid::Uuid::new_v4().to_string(), next_seq: 0 },
    };
    let mut messages = txn.open_table(BRAIN_MESSAGES)?;
    for r in records {
        messages.insert(format!("{sub}/{:010}", thread.next_seq).as_str(), codec::encode(r)?.as_slice())?;
        thread.next_seq += 1;
    }
    threads.insert(sub, codec::encode(&thread)?.as_slice())?;
    let (start, end) = thread_range(sub);
    // Counted by key: most appends fold nothing, and need not decode the thread.
    let mut count = 0;
    for entry in messages.range(start.as_str()..end.as_str())? {
        entry?;
        count += 1;
    }
    if count <= limit {
        return Ok(thread.conversation_id);
    }
    let mut all: Vec<(String, ChatRecord)> = Vec::with_capacity(count);
    for entry in messages.range(start.as_str()..end.as_str())? {
        let (k, v) = entry?;
        all.push((k.value().to_owned(), codec::decode(v.value())?));
    }
    // Fold a tenth of the limit at once, so folding is rare rather than on every message.
    let fold_count = (all.len() - limit + limit / 10).min(all.len() - 1).max(2);
    let (previous, folded): (Vec<_>, Vec<_>) = all[..fold_count].iter().partition(|(_, r)| r.role == SUMMARY_ROLE);
    let folded_records: Vec<ChatRecord> = folded.iter().map(|(_, r)| r.clone()).collect();
    let summary = summarize(previous.last().map(|(_, r)| r), &folded_records, now_ms);
    let mut archive = txn.open_table(BRAIN_ARCHIVE)?;
    for (key, record) in &folded {
        archive.insert(key.as_str(), codec::encode(record)?.as_slice())?;
    }
    for (key, _) in &all[..fold_count] {
        messages.remove(key.as_str())?;
    }
    messages.insert(all[0].0.as_str(), codec::encode(&summary)?.as_slice())?;
    Ok(thread.conversation_id)
}

impl Store {
    /// The user's thread, oldest message first.
    pub async fn chat_thread(&self, sub: &str) -> Result<(Option<ThreadRecord>, Vec<ChatRecord>), StoreError> {
        let sub = sub.to_owned();
        self.blocking(move |db| read_thread(db, &sub)).await
    }

    /// What a chat turn reads of the user's thread: the summary of its folded messages, if it
    /// has one, and its newest messages, oldest first, back to the one whose `cost` takes
    /// their sum past `budget` (that one included). The thread's older messages are not read.
    pub async fn chat_recent(
        &self,
        sub: &str,
        budget: u64,
        cost: fn(&ChatRecord) -> u64,
    ) -> Result<(Option<ChatRecord>, Vec<ChatRecord>), StoreError> {
        let sub = sub.to_owned();
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            let table = txn.open_table(BRAIN_MESSAGES)?;
            let (start, end) = thread_range(&sub);
            let mut recent = Vec::new();
            let mut summary = None;
            let mut spent = 0;
            for entry in table.range(start.as_str()..end.as_str())?.rev() {
                if spent > budget {
                    break;
                }
                let record: ChatRecord = codec::decode(entry?.1.value())?;
                if record.role == SUMMARY_ROLE {
                    summary = Some(record);
                    break;
                }
                spent += cost(&record);
                recent.push(record);
            }
            // A fold leaves its summary first in the thread, where the budget may stop short of it.
            if summary.is_none()
                && spent > budget
                && let Some(entry) = table.range(start.as_str()..end.as_str())?.next()
            {
                let first: ChatRecord = codec::decode(entry?.1.value())?;
                summary = (first.role == SUMMARY_ROLE).then_some(first);
            }
            recent.reverse();
            Ok((summary, recent))
        })
        .await
    }

    /// Appends messages — and the model call that answered them, when there is one — in one
    /// durable commit (a chat message made two, the call's and the thread's); returns the
    /// conversation id.
    pub async fn append_chat(
        &self,
        sub: &str,
        records: Vec<ChatRecord>,
        limit: usize,
        summarize: Summarize,
        call: Option<ModelCall>,
    ) -> Result<String, StoreError> {
        let (sub, now_ms) = (sub.to_owned(), self.now_ms());
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            let id = append(&txn, &sub, &records, limit, summarize, now_ms)?;
            if let Some(call) = &call {
                record_call(&txn, call)?;
            }
            txn.commit()?;
            Ok(id)
        })
        .await
    }

    /// Removes every message of the user's thread (archive included) and starts a new
    /// conversation id; returns how many messages were removed.
    pub async fn clear_chat(&self, sub: &str) -> Result<usize, StoreError> {
        let sub = sub.to_owned();
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            let (start, end) = thread_range(&sub);
            let mut removed = 0;
            for (table, live) in [(BRAIN_MESSAGES, true), (BRAIN_ARCHIVE, false)] {
                let mut t = txn.open_table(table)?;
                let keys: Vec<String> = t
                    .range(start.as_str()..end.as_str())?
                    .map(|e| e.map(|(k, _)| k.value().to_owned()))
                    .collect::<Result<_, _>>()?;
                if live {
                    removed = keys.len();
                }
                for k in keys {
                    t.remove(k.as_str())?;
                }
            }
            txn.open_table(BRAIN_THREADS)?.remove(sub.as_str())?;
            txn.commit()?;
            Ok(removed)
        })
        .await
    }

    /// Messages folded out of the user's thread, oldest first.
    pub async fn chat_archive(&self, sub: &str) -> Result<Vec<ChatRecord>, StoreError> {
        let sub = sub.to_owned();
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            let (start, end) = thread_range(&sub);
            let table = txn.open_table(BRAIN_ARCHIVE)?;
            let mut out = Vec::new();
            for entry in table.range(start.as_str()..end.as_str())? {
                out.push(codec::decode(entry?.1.value())?);
            }
            Ok(out)
        })
        .await
    }

    /// Records one model call in the ledger and the token table, durably.
    pub async fn record_model_call(&self, call: ModelCall) -> Result<(), StoreError> {
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            record_call(&txn, &call)?;
            txn.commit()?;
            Ok(())
        })
        .await
    }

    /// Every recorded model call, oldest first.
    pub async fn model_calls(&self) -> Result<Vec<ModelCall>, StoreError> {
        self.all_records(MODEL_CALLS).await
    }
}

// Types first written under schema version 2; no older layout exists.
super::codec::unchanged_records!(ThreadRecord, ModelCall);

#[cfg(test)]
mod tests {
    use super::*;

    fn message(role: &str, at_ms: i64) -> ChatRecord {
        ChatRecord { role: role.into(), content: format!("{role} says"), at_ms, unanswered: false, tokens_used: 0 }
    }

    fn summary(_: Option<&ChatRecord>, folded: &[ChatRecord], at_ms: i64) -> ChatRecord {
        ChatRecord { role: SUMMARY_ROLE.into(), content: format!("{} folded", folded.len()), ..message("x", at_ms) }
    }

    #[tokio::test]
    async fn a_turn_reads_the_summary_and_the_newest_messages_within_its_budget() {
        let dir = tempfile::tempdir().expect("dir");
        let store = Store::open(&dir.path().join("b.redb")).expect("open");
        let one = |_: &ChatRecord| 10;
        store.append_chat("u1", (0..3).map(|i| message("user", i)).collect(), 8, summary, None).await.expect("a");
        let (folded, recent) = store.chat_recent("u1", 1_000, one).await.expect("short");
        assert_eq!((folded, recent.len()), (None, 3), "a short thread is read whole");

        // Past the limit of 8 the oldest fold into a summary, kept first in the thread.
        store.append_chat("u1", (3..12).map(|i| message("user", i)).collect(), 8, summary, None).await.expect("b");
        let (_, thread) = store.chat_thread("u1").await.expect("thread");
        assert_eq!(thread[0].role, SUMMARY_ROLE);
        let (folded, recent) = store.chat_recent("u1", 25, one).await.expect("budget");
        assert_eq!(folded.as_ref(), Some(&thread[0]), "the summary, though the budget stops short of it");
        let ats: Vec<i64> = recent.iter().map(|m| m.at_ms).collect();
        assert_eq!(ats, [9, 10, 11], "oldest first, back to the message that crosses the budget");
        let (folded, recent) = store.chat_recent("u1", 1_000, one).await.expect("all");
        assert_eq!((folded.as_ref(), &recent[..]), (Some(&thread[0]), &thread[1..]));
        assert_eq!(store.chat_recent("u2", 25, one).await.expect("none"), (None, vec![]));
    }

    #[tokio::test]
    async fn an_answer_and_its_model_call_are_written_in_one_commit() {
        let dir = tempfile::tempdir().expect("dir");
        let store = Store::open(&dir.path().join("b.redb")).expect("open");
        let at = 1_795_737_600_000;
        let call = ModelCall {
            at_ms: at,
            who: "user:u1".into(),
            model: "m".into(),
            task: "research".into(),
            input_tokens: 40,
            output_tokens: 2,
            cost_micros: 9,
        };
        let answered = vec![message("user", at), message("assistant", at)];
        store.append_chat("u1", answered, 500, summary, Some(call.clone())).await.expect("append");
        store.append_chat("u1", vec![message("user", at + 1)], 500, summary, None).await.expect("unanswered");
        assert_eq!(store.chat_thread("u1").await.expect("thread").1.len(), 3);
        assert_eq!(store.model_calls().await.expect("ledger"), vec![call]);
        let spent = store.spend("user:u1", at).await.expect("spend");
        assert_eq!((spent.today.tokens, spent.today.calls), (42, 1), "counted once, with the answer");
    }
}
