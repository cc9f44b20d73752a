//! An in-memory word index over the live memory entries, so search and the Brain's context
//! never scan every entry. Built once when the store opens (one pass over `MEMORY`) and kept
//! current by the memory group commit: each committed batch updates the index before any
//! writer of the batch is answered, so a write acknowledged is a write findable. The index
//! holds addresses and small figures only; records are read from redb by key.
//! Words are `domain::search_words` (three letters or more, lowercase). Per scope it also keeps
//! the keys in order and the scope's totals (entries, bytes, tokens, pinned), so the memory
//! tree answers counts per scope and pages within one without reading an entry (issue 27).

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::sync::{Arc, Mutex, RwLock};

use super::memory_record::{MemoryOutcome, MemoryRecord};
use super::postings::{self, Hit, Total};
use super::word_table::{EntrySet, WordTable};
use crate::domain::each_search_word;

/// What the index knows of one live entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexedEntry {
    pub scope: String,
    pub key: String,
    pub version: u64,
    pub pinned: bool,
    /// Unix milliseconds.
    pub updated_at: i64,
    /// Characters of the value.
    pub value_chars: usize,
    /// Bytes of the value.
    pub value_bytes: usize,
    /// What the entry costs in a budget (`MemoryRecord::tokens`).
    pub tokens: u64,
}

/// One scope's totals over its live entries.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScopeTotals {
    pub scope: String,
    pub entries: usize,
    pub pinned: usize,
    /// Bytes of the values.
    pub bytes: usize,
    pub tokens: u64,
}

/// One scope: its totals, its entries' ids by key, and by (pinned, updated_at, id), so the
/// pinned and newest come last.
#[derive(Default)]
struct ScopeKeys {
    totals: ScopeTotals,
    keys: BTreeMap<Arc<str>, u32>,
    by_time: BTreeSet<(bool, i64, u32)>,
}

impl ScopeKeys {
    fn count(&mut self, e: &Slot, sign: i64) {
        let t = &mut self.totals;
        let step = |n: usize, by: usize| if sign > 0 { n + by } else { n.saturating_sub(by) };
        t.entries = step(t.entries, 1);
        t.pinned = step(t.pinned, usize::from(e.pinned));
        t.bytes = step(t.bytes, e.value_bytes as usize);
        let tokens = u64::from(e.tokens);
        t.tokens = if sign > 0 { t.tokens + tokens } else { t.tokens.saturating_sub(tokens) };
    }
}

/// Which scopes a search looks in.
#[derive(Debug, Clone, Copy)]
pub enum ScopeFilter<'a> {
    Any,
    Exact(&'a str),
    /// Scopes starting with this (e.g. `worker:`).
    Prefix(&'a str),
}

impl ScopeFilter<'_> {
    fn admits(&self, scope: &str) -> bool {
        match self {
            ScopeFilter::Any => true,
            ScopeFilter::Exact(s) => scope == *s,
            ScopeFilter::Prefix(p) => scope.starts_with(p),
        }
    }
}

const COMMON_SHARE: usize = 20;
/// Entries in a row that did not fit the budget before a pick stops looking.
const MAX_MISSES: usize = 32;
const COMMON_FLOOR: usize = 1_000;
/// Holes (removed entries' ids) past a quarter of the live entries and this many renumber.
const COMPACT_FLOOR: usize = 1_024;

/// What the index keeps of one live entry: its address (the scope shared by every entry of it,
/// the key shared with the scope's key order) and its figures; its words are only in the
/// posting lists.
struct Slot {
    scope: Arc<str>,
    key: Arc<str>,
    version: u64,
    pinned: bool,
    updated_at: i64,
    value_chars: u32,
    value_bytes: u32,
    tokens: u32,
}

impl Slot {
    fn entry(&self) -> IndexedEntry {
        IndexedEntry {
            scope: self.scope.to_string(),
            key: self.key.to_string(),
            version: self.version,
            pinned: self.pinned,
            updated_at: self.updated_at,
            value_chars: self.value_chars as usize,
            value_bytes: self.value_bytes as usize,
            tokens: u64::from(self.tokens),
        }
    }
}

/// The index. An entry's id is its place in `entries`, given in write order and never reused,
/// so a larger id is a more recent write (at open, ids follow the update times): a word's
/// posting list of entry ids in increasing order is also oldest to newest, and a search reads
/// it from the newest end (`postings`). A removed entry leaves a hole; when the holes pass a
/// quarter of the live entries the ids are renumbered in order (`compact`), which also forgets
/// words no entry holds any more. Per entry this is about 200 bytes plus 4 per word, and about
/// 45 per distinct word (issue 27: a million entries in a few hundred MB, not gigabytes).
#[derive(Default)]
struct Inner {
    live: usize,
    entries: Vec<Option<Slot>>,
    words: WordTable,
    /// Per scope, in scope order.
    scopes: BTreeMap<Arc<str>, ScopeKeys>,
}

/// The index behind a lock readers share. Its one writer (the memory group commit; `writer`
/// makes it one whoever calls) reads what a change needs under the shared lock — the ids and
/// words of the entries a fold removes, the tokenising that is most of a fold's cost — and
/// holds the exclusive lock only to change the lists (issue 27: a search waited out a whole
/// fold).
#[derive(Default)]
pub struct MemoryIndex {
    inner: RwLock<Inner>,
    writer: Mutex<()>,
}

/// What taking entries off the index changes, read under the shared lock: their ids, the
/// words they hold, and their addresses.
struct Removal<'r> {
    gone: Vec<u32>,
    words: Vec<u32>,
    records: Vec<&'r MemoryRecord>,
}

/// An index being filled from the file one entry at a time; `done` numbers the entries in
/// order of update time (the file's order breaks ties), so a larger id is newer.
#[derive(Default)]
pub(crate) struct IndexLoad(Inner);

impl IndexLoad {
    pub(crate) fn add(&mut self, record: &MemoryRecord) {
        self.0.insert(record);
    }

    pub(crate) fn done(mut self) -> MemoryIndex {
        let inner = &mut self.0;
        let by_time = inner.entries.iter().enumerate().filter_map(|(id, e)| Some((e.as_ref()?.updated_at, small(id))));
        let mut order: Vec<(i64, u32)> = by_time.collect();
        order.sort_unstable();
        inner.compact(order.into_iter().map(|(_, id)| id).collect());
        inner.words.shrink_to_fit();
        MemoryIndex { inner: RwLock::new(self.0), writer: Mutex::default() }
    }
}

/// Calls `found` with each search word of an entry's key, value and tags (repeats included).
fn each_word(r: &MemoryRecord, mut found: impl FnMut(&str)) {
    for text in [r.key.as_str(), r.value.as_str()].into_iter().chain(r.tags.iter().map(String::as_str)) {
        each_search_word(text, &mut found);
    }
}

/// Clamps a count into the index's 32-bit figures.
fn small(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl Inner {
    fn id_of(&self, scope: &str, key: &str) -> Option<u32> {
        self.scopes.get(scope)?.keys.get(key).copied()
    }

    /// What removing the live entries `records` (the records the index holds: their words are
    /// theirs) changes; reads only.
    fn removal<'r>(&self, records: impl IntoIterator<Item = &'r MemoryRecord>) -> Removal<'r> {
        let mut removal = Removal { gone: Vec::new(), words: Vec::new(), records: Vec::new() };
        for r in records {
            let Some(id) = self.id_of(&r.scope, &r.key) else { continue };
            removal.gone.push(id);
            each_word(r, |w| removal.words.extend(self.words.get(w)));
            removal.records.push(r);
        }
        removal.words.sort_unstable();
        removal.words.dedup();
        removal
    }

    /// Removes the entries of `removal` (read from this index, unchanged since), taking them
    /// off each word's list in one pass however many they are (`WordTable::remove_all`).
    fn remove(&mut self, removal: Removal<'_>) {
        let gone = EntrySet::new(&removal.gone);
        for w in removal.words {
            self.words.remove_all(w, &gone);
        }
        for r in removal.records {
            self.forget(&r.scope, &r.key);
        }
    }

    /// Drops the entry at `scope/key` from its scope, leaving a hole at its id (its posting
    /// lists are `remove`'s to clear).
    fn forget(&mut self, scope: &str, key: &str) {
        let Some(id) = self.id_of(scope, key) else { return };
        let Some(slot) = self.entries.get_mut(id as usize).and_then(Option::take) else { return };
        if let Some(keys) = self.scopes.get_mut(scope) {
            keys.keys.remove(key);
            keys.by_time.remove(&(slot.pinned, slot.updated_at, id));
            keys.count(&slot, -1);
            if keys.keys.is_empty() {
                self.scopes.remove(scope);
            }
        }
        self.live -= 1;
    }

    /// Adds `r`, whose key the index does not hold (a replaced record is `remove`d first).
    fn insert(&mut self, r: &MemoryRecord) {
        self.forget(&r.scope, &r.key);
        if self.entries.len() - self.live > self.live / 4 + COMPACT_FLOOR {
            self.compact((0..small(self.entries.len())).collect());
        }
        let id = small(self.entries.len());
        let mut words = Vec::new();
        each_word(r, |w| words.push(self.words.intern(w)));
        words.sort_unstable();
        words.dedup();
        for w in &words {
            self.words.push(*w, id);
        }
        let scope_name = match self.scopes.get_key_value(r.scope.as_str()) {
            Some((name, _)) => Arc::clone(name),
            None => Arc::from(r.scope.as_str()),
        };
        let slot = Slot {
            scope: Arc::clone(&scope_name),
            key: Arc::from(r.key.as_str()),
            version: r.version,
            pinned: r.pinned,
            updated_at: r.updated_at,
            value_chars: small(r.value.chars().count()),
            value_bytes: small(r.value.len()),
            tokens: u32::try_from(r.tokens()).unwrap_or(u32::MAX),
        };
        let keys = self.scopes.entry(scope_name).or_default();
        keys.totals.scope.clone_from(&r.scope);
        keys.keys.insert(Arc::clone(&slot.key), id);
        keys.by_time.insert((slot.pinned, slot.updated_at, id));
        keys.count(&slot, 1);
        self.entries.push(Some(slot));
        self.live += 1;
    }

    fn slot(&self, id: u32) -> Option<&Slot> {
        self.entries.get(id as usize).and_then(Option::as_ref)
    }

    /// Renumbers the live entries in `order` (old ids; holes are skipped) as 0, 1, 2, …, in
    /// the slots, the scopes and the posting lists (`WordTable::renumber_entries`, which also
    /// forgets the words no entry holds any more).
    fn compact(&mut self, order: Vec<u32>) {
        let mut new_id = vec![u32::MAX; self.entries.len()];
        let mut entries = Vec::with_capacity(self.live);
        for old in order {
            if let Some(slot) = self.entries.get_mut(old as usize).and_then(Option::take) {
                new_id[old as usize] = small(entries.len());
                entries.push(Some(slot));
            }
        }
        self.entries = entries;
        self.words.renumber_entries(&new_id);
        for keys in self.scopes.values_mut() {
            // Rebuilt rather than changed in place: a map collected in order has full nodes,
            // where one filled key by key in order is left about half full (issue 27's RSS).
            keys.keys =
                std::mem::take(&mut keys.keys).into_iter().map(|(key, id)| (key, new_id[id as usize])).collect();
            keys.by_time = keys.by_time.iter().map(|(pinned, at, id)| (*pinned, *at, new_id[*id as usize])).collect();
        }
    }

    /// The ids and posting lists of the asked words found. With `distinctive`, words found in
    /// more than one entry in twenty (of at least 1,000) are left out: they tell nothing apart
    /// and would make a question cost a scan.
    fn lists(&self, asked: &HashSet<String>, distinctive: bool) -> Vec<(u32, &[u32])> {
        let common = (self.live / COMMON_SHARE).max(COMMON_FLOOR);
        let found = asked.iter().filter_map(|w| self.words.get(w));
        found
            .map(|w| (w, self.words.postings(w)))
            .filter(|(_, list)| !list.is_empty() && (!distinctive || list.len() <= common))
            .collect()
    }

    /// Every entry id holding an asked word, in `filter`, with how many it holds, in id order:
    /// the posting lists merged (for a pick, which wants all of them).
    fn scored(&self, asked: &HashSet<String>, filter: ScopeFilter, distinctive: bool) -> Vec<Hit> {
        let lists: Vec<&[u32]> = self.lists(asked, distinctive).into_iter().map(|(_, list)| list).collect();
        postings::union(&lists).filter(|hit| self.slot(hit.id).is_some_and(|e| filter.admits(&e.scope))).collect()
    }

    /// The best `limit` entries holding asked words in `filter` (most words, then the most
    /// recently written), and how many match. A scope smaller than the posting lists is read
    /// entry by entry; otherwise the lists are walked from their newest end (`postings::best`).
    fn find(&self, asked: &HashSet<String>, filter: ScopeFilter, limit: usize, distinctive: bool) -> (Total, Vec<Hit>) {
        let lists = self.lists(asked, distinctive);
        let listed: usize = lists.iter().map(|(_, list)| list.len()).sum();
        if let ScopeFilter::Exact(scope) = filter {
            let Some(keys) = self.scopes.get(scope) else { return (Total::NONE, Vec::new()) };
            if keys.keys.len() < listed {
                let mut ids: Vec<u32> = keys.keys.values().copied().collect();
                ids.sort_unstable_by(|a, b| b.cmp(a));
                let holds = |id: u32| small(lists.iter().filter(|(_, list)| list.binary_search(&id).is_ok()).count());
                return postings::best_of(&ids, small(lists.len()), limit, holds);
            }
        }
        let lists: Vec<&[u32]> = lists.into_iter().map(|(_, list)| list).collect();
        let admits = |id| self.slot(id).is_some_and(|e| filter.admits(&e.scope));
        let hits = postings::best(&lists, limit, admits);
        let total = match (filter, lists.as_slice()) {
            (ScopeFilter::Any, [one]) => Total { count: one.len(), exact: true },
            (ScopeFilter::Any, _) => {
                let longest = lists.iter().map(|list| list.len()).max().unwrap_or(0);
                let counted = postings::count(&lists, admits);
                Total { count: counted.count.max(longest), ..counted }
            }
            _ => postings::count(&lists, admits),
        };
        (total, hits)
    }
}

impl MemoryIndex {
    pub fn build(records: impl IntoIterator<Item = MemoryRecord>) -> Self {
        let mut load = IndexLoad::default();
        records.into_iter().for_each(|r| load.add(&r));
        load.done()
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, Inner> {
        self.inner.read().unwrap_or_else(|p| p.into_inner())
    }

    /// Applies what one committed memory operation changed: the entries it replaced or folded
    /// are read under the shared lock, then taken off and the new entry added under the
    /// exclusive one.
    pub(crate) fn apply(&self, outcome: &MemoryOutcome) {
        let (gone, added): (Vec<&MemoryRecord>, _) = match outcome {
            MemoryOutcome::Written { record, replaced } => (replaced.iter().collect(), record),
            MemoryOutcome::Folded { summary, replaced, folded } => (folded.iter().chain(replaced).collect(), summary),
            MemoryOutcome::Stale { .. } | MemoryOutcome::Changed => return,
        };
        let _one_writer = self.writer.lock().unwrap_or_else(|p| p.into_inner());
        let removal = self.read().removal(gone);
        let mut inner = self.inner.write().unwrap_or_else(|p| p.into_inner());
        inner.remove(removal);
        inner.insert(added);
    }

    /// Live entries indexed.
    pub fn len(&self) -> usize {
        self.read().live
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Entries holding words of `asked`: how many match in all, and the best `limit` (most
    /// words matched, then most recently updated, then key).
    pub fn search(
        &self,
        asked: &HashSet<String>,
        filter: ScopeFilter,
        limit: usize,
    ) -> (Total, Vec<(usize, IndexedEntry)>) {
        self.search_by(asked, filter, limit, false)
    }

    /// As `search`, ignoring words too common to tell entries apart (see `Inner::scored`);
    /// its cost follows the rare words of the question, not the size of memory.
    pub fn search_distinctive(
        &self,
        asked: &HashSet<String>,
        filter: ScopeFilter,
        limit: usize,
    ) -> (Total, Vec<(usize, IndexedEntry)>) {
        self.search_by(asked, filter, limit, true)
    }

    fn search_by(
        &self,
        asked: &HashSet<String>,
        filter: ScopeFilter,
        limit: usize,
        distinctive: bool,
    ) -> (Total, Vec<(usize, IndexedEntry)>) {
        let inner = self.read();
        let (total, hits) = inner.find(asked, filter, limit, distinctive);
        let found = hits.iter().filter_map(|h| Some((h.score as usize, inner.slot(h.id)?.entry())));
        (total, found.collect())
    }

    /// Every scope's totals, in scope-name order.
    pub fn scope_totals(&self) -> Vec<ScopeTotals> {
        self.read().scopes.values().map(|s| s.totals.clone()).collect()
    }

    /// One scope's totals, if it has entries.
    pub fn totals_of(&self, scope: &str) -> Option<ScopeTotals> {
        self.read().scopes.get(scope).map(|s| s.totals.clone())
    }

    /// At most `limit` entries of `scope` in key order after the key `after`, and whether more
    /// follow.
    pub fn scope_keys(&self, scope: &str, after: Option<&str>, limit: usize) -> (Vec<IndexedEntry>, bool) {
        let inner = self.read();
        let Some(keys) = inner.scopes.get(scope) else { return (Vec::new(), false) };
        let lower = match after {
            Some(a) => std::ops::Bound::Excluded(a),
            None => std::ops::Bound::Unbounded,
        };
        let mut walk = keys.keys.range::<str, _>((lower, std::ops::Bound::Unbounded));
        let page: Vec<IndexedEntry> =
            walk.by_ref().take(limit).filter_map(|(_, id)| inner.slot(*id).map(Slot::entry)).collect();
        (page, walk.next().is_some())
    }

    /// Entries updated at or after `since_ms` in the scopes `admits`, newest first, at most
    /// `limit`: read from each scope's order by update time, so its cost follows the scopes and
    /// the answer, not the size of memory.
    pub fn updated_since(&self, since_ms: i64, limit: usize, admits: impl Fn(&str) -> bool) -> Vec<IndexedEntry> {
        let inner = self.read();
        let mut hits: Vec<&Slot> = Vec::new();
        for (_, keys) in inner.scopes.iter().filter(|(scope, _)| admits(scope)) {
            for pinned in [false, true] {
                let newest = keys.by_time.range((pinned, since_ms, 0)..=(pinned, i64::MAX, u32::MAX)).rev().take(limit);
                hits.extend(newest.filter_map(|(_, _, id)| inner.slot(*id)));
            }
        }
        hits.sort_by(|a, b| b.updated_at.cmp(&a.updated_at).then_with(|| (&a.scope, &a.key).cmp(&(&b.scope, &b.key))));
        hits.into_iter().take(limit).map(Slot::entry).collect()
    }

    /// Entries of one scope for a context of at most `budget` (in the caller's cost units):
    /// pinned entries first (newest first), then those sharing words with `asked` (best
    /// first, distinctive words only), then the newest; an entry whose cost does not fit is
    /// skipped, and after `MAX_MISSES` such entries in a row the pick ends (so a nearly full
    /// budget never walks the whole scope).
    pub fn pick(
        &self,
        scope: &str,
        asked: &HashSet<String>,
        budget: u64,
        cost: impl Fn(&IndexedEntry) -> u64,
    ) -> Vec<IndexedEntry> {
        let inner = self.read();
        let Some(in_scope) = inner.scopes.get(scope).map(|keys| &keys.by_time) else { return Vec::new() };
        let pinned = in_scope.iter().rev().take_while(|(p, _, _)| *p).map(|(_, _, id)| *id);
        let mut relevant = inner.scored(asked, ScopeFilter::Exact(scope), true);
        relevant.sort_unstable_by(|a, b| b.cmp(a));
        let newest = in_scope.iter().rev().map(|(_, _, id)| *id);
        let (mut picked, mut seen, mut used, mut misses) = (Vec::new(), HashSet::new(), 0u64, 0);
        for id in pinned.chain(relevant.into_iter().map(|h| h.id)).chain(newest) {
            if used >= budget || misses >= MAX_MISSES {
                break;
            }
            let Some(entry) = inner.slot(id).filter(|_| seen.insert(id)).map(Slot::entry) else { continue };
            let c = cost(&entry);
            if used + c <= budget {
                used += c;
                misses = 0;
                picked.push(entry);
            } else {
                misses += 1;
            }
        }
        picked
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::search_words;

    fn sorted(inner: &Inner) -> bool {
        (0..small(inner.words.len())).all(|w| inner.words.postings(w).is_sorted())
    }

    fn record(scope: &str, key: &str, value: &str, pinned: bool, at: i64) -> MemoryRecord {
        MemoryRecord {
            scope: scope.into(),
            key: key.into(),
            value: value.into(),
            pinned,
            tags: vec!["tagged".into()],
            version: 1,
            created_at: at,
            updated_at: at,
            author: "t".into(),
        }
    }

    #[test]
    fn a_fold_of_thousands_takes_each_of_them_off_every_list() {
        let notes: Vec<MemoryRecord> = (0..3_000)
            .map(|n| {
                record("worker:a", &format!("n{n:04}"), &format!("pricing renewal note{n} odd{}", n % 2), false, n)
            })
            .collect();
        let kept = record("worker:b", "kept", "pricing renewal", false, 5_000);
        let index = MemoryIndex::build(notes.iter().cloned().chain([kept]));
        let folded: Vec<MemoryRecord> = notes.iter().filter(|r| r.updated_at % 3 != 0).cloned().collect();
        let summary = record("worker:a", "summary", "pricing summary", false, 6_000);
        index.apply(&MemoryOutcome::Folded { summary, replaced: None, folded });
        let count = |q: &str| index.search(&search_words(q), ScopeFilter::Any, 10).0.count;
        assert_eq!(count("renewal"), 1_000 + 1, "a third of the notes and the kept entry");
        assert_eq!(count("pricing"), 1_000 + 2, "and the summary");
        assert_eq!((count("note3"), count("note4")), (1, 0));
        assert_eq!(index.len(), 1_000 + 2);
        assert!(sorted(&index.read()));
    }

    #[test]
    fn writes_and_folds_keep_the_index_current() {
        let first = record("org", "icp", "mid-market banks", false, 1);
        let index = MemoryIndex::build([first.clone()]);
        let asked = search_words("which banks?");
        assert_eq!(index.search(&asked, ScopeFilter::Any, 10).0.count, 1);
        let newer = MemoryRecord { value: "hospitals".into(), version: 2, ..record("org", "icp", "", false, 2) };
        index.apply(&MemoryOutcome::Written { record: newer, replaced: Some(first) });
        assert_eq!(index.search(&asked, ScopeFilter::Any, 10).0.count, 0, "the old words are gone");
        let (_, hits) = index.search(&search_words("hospitals tagged"), ScopeFilter::Exact("org"), 10);
        assert_eq!(hits.iter().map(|(s, e)| (*s, e.version)).collect::<Vec<_>>(), [(2, 2)]);

        let n1 = record("worker:a", "n1", "banks", false, 3);
        index.apply(&MemoryOutcome::Written { record: n1.clone(), replaced: None });
        let summary = record("worker:a", "summary", "folded banks", false, 4);
        index.apply(&MemoryOutcome::Folded { summary, replaced: None, folded: vec![n1] });
        let (total, hits) = index.search(&asked, ScopeFilter::Prefix("worker:"), 10);
        assert_eq!((total.count, hits[0].1.key.as_str()), (1, "summary"));
        assert_eq!(index.len(), 2);
    }

    #[test]
    fn a_pick_takes_pinned_then_relevant_then_newest_within_the_budget() {
        let index = MemoryIndex::build([
            record("org", "old", "nothing related", false, 1),
            record("org", "newest", "nothing related", false, 9),
            record("org", "rule", "always pinned", true, 2),
            record("org", "pricing", "pricing objections answer", false, 3),
            record("team:x", "pricing", "another scope", false, 10),
        ]);
        let keys = |budget| -> Vec<String> {
            index.pick("org", &search_words("pricing objections?"), budget, |_| 1).into_iter().map(|e| e.key).collect()
        };
        assert_eq!(keys(3), ["rule", "pricing", "newest"]);
        assert_eq!(keys(10), ["rule", "pricing", "newest", "old"]);
        assert!(index.pick("team:none", &HashSet::new(), 10, |_| 1).is_empty());
        let visited = std::cell::Cell::new(0);
        let many = MemoryIndex::build((0..1_000).map(|i| record("org", &format!("k{i}"), "v", false, i)));
        let picked = many.pick("org", &HashSet::new(), 5, |_| {
            visited.set(visited.get() + 1);
            2
        });
        assert_eq!(picked.len(), 2, "two entries of cost 2 fit a budget of 5");
        assert!(visited.get() <= 2 + MAX_MISSES, "a nearly full budget stops looking: {} visited", visited.get());
    }

    #[test]
    fn scope_totals_and_key_pages_follow_writes_and_folds() {
        let index = MemoryIndex::build([
            record("org", "b", "four", false, 1),
            record("org", "a", "twelve chars", true, 2),
            record("worker:sdr", "x", "v", false, 3),
        ]);
        let org = index.totals_of("org").unwrap_or_default();
        assert_eq!((org.entries, org.pinned, org.bytes), (2, 1, 16));
        let tokens =
            record("org", "b", "four", false, 1).tokens() + record("org", "a", "twelve chars", true, 2).tokens();
        assert_eq!(org.tokens, tokens);
        let (page, more) = index.scope_keys("org", None, 1);
        assert_eq!((page.iter().map(|e| e.key.as_str()).collect::<Vec<_>>(), more), (vec!["a"], true));
        let (page, more) = index.scope_keys("org", Some("a"), 1);
        assert_eq!((page[0].key.as_str(), more), ("b", false));

        let summary = record("worker:sdr", "summary", "folded", false, 4);
        let x = record("worker:sdr", "x", "v", false, 3);
        index.apply(&MemoryOutcome::Folded { summary, replaced: None, folded: vec![x] });
        let scopes: Vec<(String, usize)> = index.scope_totals().into_iter().map(|t| (t.scope, t.entries)).collect();
        assert_eq!(scopes, [("org".to_owned(), 2), ("worker:sdr".to_owned(), 1)]);
        let (b, old_b) = (record("org", "b", "longer value", false, 5), record("org", "b", "four", false, 1));
        index.apply(&MemoryOutcome::Written { record: b, replaced: Some(old_b) });
        assert_eq!(index.totals_of("org").map(|t| (t.entries, t.bytes)), Some((2, 24)));
        assert_eq!(index.scope_keys("team:none", None, 5), (Vec::new(), false));
    }

    #[test]
    fn searches_find_the_most_words_then_the_newest_write() {
        let value = |i: i64| if i % 3 == 0 { "alpha beta" } else { "alpha" };
        let index = MemoryIndex::build((0..30).map(|i| record("org", &format!("k{i:02}"), value(i), false, i)));
        let both = search_words("alpha beta");
        assert_eq!(index.search(&both, ScopeFilter::Any, 100).0.count, 30);
        let (_, hits) = index.search(&both, ScopeFilter::Any, 3);
        let best: Vec<(usize, &str)> = hits.iter().map(|(s, e)| (*s, e.key.as_str())).collect();
        assert_eq!(best, [(2, "k27"), (2, "k24"), (2, "k21")], "both words first, then the newest");
        // Fold away ten entries (their ids become holes), then write ten more.
        let folded = (0..10).map(|i| record("org", &format!("k{i:02}"), value(i), false, i)).collect();
        let summary = record("org", "sum", "gamma", false, 99);
        index.apply(&MemoryOutcome::Folded { summary, replaced: None, folded });
        for i in 0..10 {
            let r = record("org", &format!("n{i}"), "beta gamma", false, 100 + i);
            index.apply(&MemoryOutcome::Written { record: r, replaced: None });
        }
        assert_eq!(index.len(), 30 - 10 + 1 + 10);
        assert_eq!(index.search(&search_words("alpha"), ScopeFilter::Any, 100).0.count, 20);
        assert_eq!(index.search(&search_words("gamma"), ScopeFilter::Any, 100).0.count, 11);
        let (total, hits) = index.search(&search_words("beta gamma"), ScopeFilter::Any, 2);
        assert_eq!(
            (total, hits.iter().map(|(s, e)| (*s, e.key.as_str())).collect::<Vec<_>>()),
            (Total { count: 17, exact: true }, vec![(2, "n9"), (2, "n8")])
        );
        let inner = index.read();
        assert!(sorted(&inner), "every posting list stays sorted");
    }

    #[test]
    fn ids_follow_update_times_and_holes_are_renumbered_away() {
        // Built out of time order: ids follow the update times, so the newest is found first.
        let index = MemoryIndex::build([
            record("org", "a-newest", "shared", false, 30),
            record("org", "b-oldest", "shared", false, 10),
            record("org", "c-middle", "shared", false, 20),
        ]);
        let keys = |q: &str, limit| -> Vec<String> {
            index.search(&search_words(q), ScopeFilter::Any, limit).1.into_iter().map(|(_, e)| e.key).collect()
        };
        assert_eq!(keys("shared", 2), ["a-newest", "c-middle"]);
        // Thousands of rewrites with a word of their own: the holes and the words nobody holds
        // any more are renumbered away, and the answers do not change.
        let written = |round: i64, i: i64| {
            let value = format!("shared unique{round}x{i}");
            record("team:x", &format!("k{i}"), &value, false, 100 + round * 10_000 + i)
        };
        for round in 0..3 {
            for i in 0..2_000 {
                let replaced = (round > 0).then(|| written(round - 1, i));
                index.apply(&MemoryOutcome::Written { record: written(round, i), replaced });
            }
        }
        assert_eq!(index.len(), 2_003);
        assert_eq!(keys("shared", 2), ["k1999", "k1998"]);
        assert_eq!(keys("unique2x5", 5), ["k5"]);
        assert!(keys("unique0x5", 5).is_empty());
        let inner = index.read();
        assert!(inner.entries.len() - inner.live <= inner.live / 4 + COMPACT_FLOOR, "holes were renumbered away");
        // 8,000 words were ever written (three rounds of 2,000 unique words, 2,000 keys); the
        // unheld ones are kept until they outnumber the held ones.
        let held = (0..small(inner.words.len())).filter(|&w| !inner.words.postings(w).is_empty()).count();
        assert!(held < 4_100, "{held} words held by 2,003 entries");
        assert!(inner.words.len() <= 2 * held + 1_024, "{} words kept for {held} held", inner.words.len());
        assert!(sorted(&inner));
        let (total, _) = index.search(&search_words("shared"), ScopeFilter::Exact("org"), 1);
        assert_eq!(total, Total { count: 3, exact: true }, "a small scope is read entry by entry");
    }

    #[test]
    fn entries_updated_since_come_newest_first_from_every_scope() {
        let index = MemoryIndex::build([
            record("org", "old", "a", false, 10),
            record("org", "new", "b", true, 40),
            record("worker:sdr", "mid", "c", false, 30),
            record("team:x", "edge", "d", false, 20),
            record("team:y", "hidden", "e", false, 50),
        ]);
        let keys = |since, limit| -> Vec<String> {
            index.updated_since(since, limit, |scope| scope != "team:y").into_iter().map(|e| e.key).collect()
        };
        assert_eq!(keys(20, 10), ["new", "mid", "edge"]);
        assert_eq!(keys(20, 2), ["new", "mid"]);
        assert!(keys(41, 10).is_empty());
    }
}
