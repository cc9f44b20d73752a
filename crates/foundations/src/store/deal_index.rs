//! An in-memory index of the deals' list fields, so the deal list with its filters and totals
//! and the pipeline summary never read every deal (issue 27). Built once when the store opens
//! (one pass over `DEALS`) and kept current by every deal write: a write takes the index's lock
//! before its transaction commits and updates the index before releasing it, so the index
//! changes in commit order and a write acknowledged is a write listed.
//!
//! It holds each deal's list form (`DealRow`, what `GET /api/deals` shows), the ids by stage,
//! by type and by rep, and a tally (count, summed value, summed value × probability) per
//! (stage, type, rep): a page walks the smallest matching id set from its cursor, and a total,
//! the pipeline summary or the pipeline view adds up tallies, whose number grows with the reps,
//! not with the deals. For the Brain it also keeps the open deals best first (later stage,
//! sooner close, larger value, then id) and the deals by the words a question names them by:
//! the first word of the account's name, the first word of the company slug, and the last word
//! of the id (`domain::name_words`) — a question naming a deal by any of those holds that word.
//!
//! It also files the deals by their account's whole name (ASCII case ignored), so an approval's
//! binding finds the deals of one account without looking at every deal that shares its first
//! word (a cap on those could leave the account's own deals out).
//!
//! Sized for 100,000 deals (issue 27's RSS): a rep's name is one shared `Arc` for all its
//! deals, the open order shares the row's close date, and the name words are filed by a 64-bit
//! hash, not their text: a collision could only add a candidate, and the Brain checks every
//! candidate against the question (as it checks the deals a real word files).

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Bound;
use std::sync::{Arc, RwLock, RwLockWriteGuard};

use redb::{ReadableDatabase, WriteTransaction};

use super::records::fold_all;
use super::tables::DEALS;
use super::workspace::DealRecord;
use super::{Store, StoreError};
use crate::domain::{DealType, Stage, name_words};

/// The list form of a deal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DealRow {
    pub id: Arc<str>,
    pub account_name: String,
    pub value: u64,
    pub stage: Stage,
    pub deal_type: DealType,
    pub rep: Arc<str>,
    pub champion: String,
    pub close_date: Arc<str>,
    pub probability: u8,
    pub company_slug: Option<String>,
}

impl DealRow {
    /// The words a question names this deal by (see the module's comment).
    fn name_keys(&self) -> BTreeSet<String> {
        let first = |text: &str| name_words(text).into_iter().next();
        let last = name_words(&self.id).pop();
        [first(&self.account_name), self.company_slug.as_deref().and_then(first), last].into_iter().flatten().collect()
    }

    /// Its place among the open deals, best first.
    fn rank(&self) -> OpenRank {
        (Reverse(self.stage), Arc::clone(&self.close_date), Reverse(self.value), Arc::clone(&self.id))
    }
}

/// Later stage, sooner close, larger value, then id.
type OpenRank = (Reverse<Stage>, Arc<str>, Reverse<u64>, Arc<str>);

/// The key a name word is filed under: a hash that is the same in every process (SipHash with
/// fixed keys), so no word text is kept per deal.
fn word_key(word: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::hash::DefaultHasher::new();
    word.hash(&mut hasher);
    hasher.finish()
}

/// The key an account's whole name is filed under (ASCII case ignored, as the binding compares).
fn account_key(name: &str) -> u64 {
    word_key(&name.to_ascii_lowercase())
}

impl From<&DealRecord> for DealRow {
    fn from(d: &DealRecord) -> Self {
        DealRow {
            id: Arc::from(d.id.as_str()),
            account_name: d.account_name.clone(),
            value: d.value,
            stage: d.stage,
            deal_type: d.deal_type,
            rep: Arc::from(d.rep.as_str()),
            champion: d.champion.clone(),
            close_date: Arc::from(d.close_date.as_str()),
            probability: d.probability,
            company_slug: d.company_slug.clone(),
        }
    }
}

/// How many deals, their summed value (US dollars), and their summed value × probability
/// (dollar-percent: divided by 100, the weighted value).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DealTally {
    pub count: u64,
    pub value: u64,
    pub weighted: u64,
}

/// Which deals a page shows: every filter optional; `after` is the id the previous page ended on.
#[derive(Debug, Clone, Copy, Default)]
pub struct DealQuery<'a> {
    pub stage: Option<Stage>,
    pub deal_type: Option<DealType>,
    pub rep: Option<&'a str>,
    pub after: Option<&'a str>,
    pub limit: usize,
}

impl DealQuery<'_> {
    fn admits(&self, stage: Stage, deal_type: DealType, rep: &str) -> bool {
        self.stage.is_none_or(|s| s == stage)
            && self.deal_type.is_none_or(|t| t == deal_type)
            && self.rep.is_none_or(|r| r == rep)
    }
}

/// One page of deals in id order, how many match in all, and whether more follow.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DealPage {
    pub rows: Vec<DealRow>,
    pub total: u64,
    pub more: bool,
}

#[derive(Default)]
pub(crate) struct Inner {
    rows: BTreeMap<Arc<str>, DealRow>,
    by_stage: BTreeSet<(Stage, Arc<str>)>,
    by_type: BTreeSet<(DealType, Arc<str>)>,
    by_rep: BTreeSet<(Arc<str>, Arc<str>)>,
    tallies: BTreeMap<(Stage, DealType, Arc<str>), DealTally>,
    open: BTreeSet<OpenRank>,
    by_name: BTreeSet<(u64, Arc<str>)>,
    by_account: BTreeSet<(u64, Arc<str>)>,
}

impl Inner {
    /// Adds `deal`, or replaces the deal with its id.
    pub(crate) fn upsert(&mut self, deal: &DealRecord) {
        self.remove(&deal.id);
        let mut row = DealRow::from(deal);
        row.rep = self.shared_rep(&row.rep);
        let id = Arc::clone(&row.id);
        self.by_stage.insert((row.stage, Arc::clone(&id)));
        self.by_type.insert((row.deal_type, Arc::clone(&id)));
        self.by_rep.insert((Arc::clone(&row.rep), Arc::clone(&id)));
        let tally = self.tallies.entry((row.stage, row.deal_type, Arc::clone(&row.rep))).or_default();
        tally.count += 1;
        tally.value += row.value;
        tally.weighted += row.value * u64::from(row.probability);
        if !row.stage.is_closed() {
            self.open.insert(row.rank());
        }
        for word in row.name_keys() {
            self.by_name.insert((word_key(&word), Arc::clone(&id)));
        }
        self.by_account.insert((account_key(&row.account_name), Arc::clone(&id)));
        self.rows.insert(id, row);
    }

    pub(crate) fn remove(&mut self, id: &str) {
        let Some(row) = self.rows.remove(id) else { return };
        self.by_stage.remove(&(row.stage, Arc::clone(&row.id)));
        self.by_type.remove(&(row.deal_type, Arc::clone(&row.id)));
        self.by_rep.remove(&(Arc::clone(&row.rep), Arc::clone(&row.id)));
        self.open.remove(&row.rank());
        for word in row.name_keys() {
            self.by_name.remove(&(word_key(&word), Arc::clone(&row.id)));
        }
        self.by_account.remove(&(account_key(&row.account_name), Arc::clone(&row.id)));
        let key = (row.stage, row.deal_type, Arc::clone(&row.rep));
        if let Some(tally) = self.tallies.get_mut(&key) {
            tally.count -= 1;
            tally.value -= row.value;
            tally.weighted -= row.value * u64::from(row.probability);
            if tally.count == 0 {
                self.tallies.remove(&key);
            }
        }
    }

    /// The `Arc` that deals of `rep` already share, or `rep` for the rep's first deal.
    fn shared_rep(&self, rep: &Arc<str>) -> Arc<str> {
        let from = (Arc::clone(rep), Arc::from(""));
        match self.by_rep.range(from..).next() {
            Some((held, _)) if held == rep => Arc::clone(held),
            _ => Arc::clone(rep),
        }
    }

    fn count(&self, admits: impl Fn(Stage, DealType, &str) -> bool) -> u64 {
        self.tallies.iter().filter(|((s, t, r), _)| admits(*s, *t, r)).map(|(_, tally)| tally.count).sum()
    }

    /// The ids of the smallest id set a filter of `q` names (all deals without a filter), in
    /// id order, after `q.after`.
    fn candidates<'a>(&'a self, q: &DealQuery<'a>) -> Box<dyn Iterator<Item = &'a Arc<str>> + 'a> {
        let sizes = [
            q.rep.map(|r| (self.count(|_, _, rep| rep == r), 0)),
            q.stage.map(|s| (self.count(|stage, _, _| stage == s), 1)),
            q.deal_type.map(|t| (self.count(|_, deal_type, _| deal_type == t), 2)),
        ];
        let smallest = sizes.into_iter().flatten().min().map(|(_, which)| which);
        match (smallest, q.rep, q.stage, q.deal_type) {
            (Some(0), Some(rep), _, _) => Box::new(ids_after(&self.by_rep, Arc::from(rep), q.after)),
            (Some(1), _, Some(stage), _) => Box::new(ids_after(&self.by_stage, stage, q.after)),
            (Some(2), _, _, Some(deal_type)) => Box::new(ids_after(&self.by_type, deal_type, q.after)),
            _ => Box::new(self.rows.range::<str, _>((after_bound(q.after), Bound::Unbounded)).map(|(id, _)| id)),
        }
    }
}

/// The lower bound of the ids after `after` (every id without one).
fn after_bound(after: Option<&str>) -> Bound<&str> {
    after.map_or(Bound::Unbounded, Bound::Excluded)
}

/// The ids filed under `key` in one of the index's (key, id) sets, in id order, after `after`.
fn ids_after<'a, K: Ord + Clone + 'a>(
    set: &'a BTreeSet<(K, Arc<str>)>,
    key: K,
    after: Option<&str>,
) -> impl Iterator<Item = &'a Arc<str>> + 'a {
    let lower = match after {
        Some(a) => Bound::Excluded((key.clone(), Arc::from(a))),
        None => Bound::Included((key.clone(), Arc::from(""))),
    };
    set.range((lower, Bound::Unbounded)).take_while(move |(k, _)| *k == key).map(|(_, id)| id)
}

#[derive(Default)]
pub struct DealIndex(RwLock<Inner>);

/// The deal index over every deal of the file (`Store::open`).
pub(crate) fn build(db: &redb::Database) -> Result<DealIndex, StoreError> {
    // One deal at a time: the records are never all in memory at once (issue 27's RSS).
    let inner = fold_all(&db.begin_read()?, DEALS, Inner::default(), |inner, d: DealRecord| inner.upsert(&d))?;
    Ok(DealIndex(RwLock::new(inner)))
}

impl Store {
    /// One page of deals from the deal index (no deal is read from the file): the rows `query`
    /// asks for, how many match in all, and whether more follow.
    pub fn deal_page(&self, query: &DealQuery<'_>) -> DealPage {
        self.deal_index.page(query)
    }

    /// Every deal's count and value summed per (stage, type), from the deal index.
    pub fn deal_tallies(&self) -> Vec<(Stage, DealType, DealTally)> {
        self.deal_index.tallies()
    }

    /// The rows of the deals filed under any of `words` (see the module's comment), in id
    /// order, at most `cap` of them.
    pub fn deals_named_by(&self, words: &[String], cap: usize) -> Vec<DealRow> {
        self.deal_index.named_by(words, cap)
    }

    /// The rows of the deals of the account named `name` (ASCII case ignored), in id order, at
    /// most `cap`.
    pub fn deals_of_account(&self, name: &str, cap: usize) -> Vec<DealRow> {
        self.deal_index.of_account(name, cap)
    }

    /// The `limit` best open deals, best first (later stage, sooner close, larger value).
    pub async fn open_deals_ranked(&self, limit: usize) -> Result<Vec<DealRecord>, StoreError> {
        self.deals_by_id(self.deal_index.open_ranked(limit)).await
    }

    /// The deals of `ids`, in that order, read in one transaction (an id removed since it was
    /// listed is skipped).
    pub async fn deals_by_id(&self, ids: Vec<Arc<str>>) -> Result<Vec<DealRecord>, StoreError> {
        self.records_at(DEALS, ids).await
    }
}

impl DealIndex {
    #[cfg(test)]
    pub(crate) fn build(deals: &[DealRecord]) -> Self {
        let mut inner = Inner::default();
        for d in deals {
            inner.upsert(d);
        }
        DealIndex(RwLock::new(inner))
    }

    /// The lock a deal write holds across its commit and its index update.
    fn lock(&self) -> RwLockWriteGuard<'_, Inner> {
        self.0.write().unwrap_or_else(|p| p.into_inner())
    }

    /// Commits `txn` and applies what it wrote to the index under one lock, taken before the
    /// commit: the index changes in commit order, and before the writer is answered.
    pub(crate) fn commit(&self, txn: WriteTransaction, apply: impl FnOnce(&mut Inner)) -> Result<(), StoreError> {
        let mut index = self.lock();
        txn.commit()?;
        apply(&mut index);
        Ok(())
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, Inner> {
        self.0.read().unwrap_or_else(|p| p.into_inner())
    }

    /// The page `q` asks for: at most `q.limit` deals in id order after `q.after`.
    pub fn page(&self, q: &DealQuery<'_>) -> DealPage {
        let inner = self.read();
        let total = inner.count(|s, t, r| q.admits(s, t, r));
        let mut rows = Vec::with_capacity(q.limit.min(1_024));
        let mut more = false;
        for id in inner.candidates(q) {
            let Some(row) = inner.rows.get(id) else { continue };
            if !q.admits(row.stage, row.deal_type, &row.rep) {
                continue;
            }
            if rows.len() == q.limit {
                more = true;
                break;
            }
            rows.push(row.clone());
        }
        DealPage { rows, total, more }
    }

    /// The tally of every (stage, type) pair that has deals, summed over the reps.
    pub fn tallies(&self) -> Vec<(Stage, DealType, DealTally)> {
        let mut by_pair: BTreeMap<(Stage, DealType), DealTally> = BTreeMap::new();
        for ((stage, deal_type, _), tally) in &self.read().tallies {
            let sum = by_pair.entry((*stage, *deal_type)).or_default();
            sum.count += tally.count;
            sum.value += tally.value;
            sum.weighted += tally.weighted;
        }
        by_pair.into_iter().map(|((s, t), tally)| (s, t, tally)).collect()
    }

    /// The rows filed under any of `words`, in id order, at most `cap`.
    pub fn named_by(&self, words: &[String], cap: usize) -> Vec<DealRow> {
        let inner = self.read();
        let mut ids: BTreeSet<&Arc<str>> = BTreeSet::new();
        for word in words {
            let key = word_key(word);
            let filed = inner.by_name.range((key, Arc::from(""))..).take_while(|(k, _)| *k == key);
            ids.extend(filed.map(|(_, id)| id).take(cap));
        }
        ids.into_iter().take(cap).filter_map(|id| inner.rows.get(id).cloned()).collect()
    }

    /// The rows of the deals whose account is named `name` (ASCII case ignored), in id order, at
    /// most `cap`.
    pub fn of_account(&self, name: &str, cap: usize) -> Vec<DealRow> {
        let inner = self.read();
        let key = account_key(name);
        let filed = inner.by_account.range((key, Arc::from(""))..).take_while(|(k, _)| *k == key);
        let rows = filed.filter_map(|(_, id)| inner.rows.get(id));
        rows.filter(|row| row.account_name.eq_ignore_ascii_case(name)).take(cap).cloned().collect()
    }

    /// The ids of the `limit` best open deals.
    pub fn open_ranked(&self, limit: usize) -> Vec<Arc<str>> {
        self.read().open.iter().take(limit).map(|(_, _, _, id)| Arc::clone(id)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::ChampionStatus;

    fn deal(id: &str, stage: Stage, deal_type: DealType, rep: &str, value: u64) -> DealRecord {
        DealRecord {
            id: id.into(),
            account_name: id.to_uppercase(),
            company_slug: None,
            value,
            stage,
            deal_type,
            rep: rep.into(),
            champion: "c".into(),
            champion_status: ChampionStatus::Engaged,
            close_date: "2027-01-01".into(),
            probability: 50,
            next_step: "n".into(),
            history: vec![],
            external_id: None,
        }
    }

    fn ids(page: &DealPage) -> Vec<&str> {
        page.rows.iter().map(|r| &*r.id).collect()
    }

    fn index() -> DealIndex {
        use DealType::{Expansion, NewBusiness, Renewal};
        use Stage::{ClosedWon, Negotiation, Prospecting};
        DealIndex::build(&[
            deal("d1", Prospecting, NewBusiness, "ann", 10),
            deal("d2", Negotiation, Expansion, "bob", 20),
            deal("d3", Prospecting, Renewal, "bob", 30),
            deal("d4", ClosedWon, NewBusiness, "ann", 40),
            deal("d5", Prospecting, NewBusiness, "bob", 50),
        ])
    }

    #[test]
    fn pages_walk_the_matching_ids_in_order_with_the_total() {
        let index = index();
        let q = DealQuery { limit: 2, ..DealQuery::default() };
        let first = index.page(&q);
        assert_eq!((ids(&first), first.total, first.more), (vec!["d1", "d2"], 5, true));
        let second = index.page(&DealQuery { after: Some("d2"), ..q });
        assert_eq!((ids(&second), second.more), (vec!["d3", "d4"], true));
        let last = index.page(&DealQuery { after: Some("d4"), ..q });
        assert_eq!((ids(&last), last.more), (vec!["d5"], false));
    }

    #[test]
    fn filters_combine_and_count_exactly() {
        let index = index();
        let q = DealQuery { stage: Some(Stage::Prospecting), rep: Some("bob"), limit: 10, ..DealQuery::default() };
        let page = index.page(&q);
        assert_eq!((ids(&page), page.total), (vec!["d3", "d5"], 2));
        let by_type =
            index.page(&DealQuery { deal_type: Some(DealType::NewBusiness), limit: 1, ..DealQuery::default() });
        assert_eq!((ids(&by_type), by_type.total, by_type.more), (vec!["d1"], 3, true));
        let nobody = index.page(&DealQuery { rep: Some("zed"), limit: 10, ..DealQuery::default() });
        assert_eq!((nobody.rows.len(), nobody.total, nobody.more), (0, 0, false));
    }

    #[test]
    fn an_update_moves_a_deal_between_sets_and_tallies() {
        let index = index();
        let mut inner = index.lock();
        inner.upsert(&deal("d1", Stage::ClosedWon, DealType::NewBusiness, "bob", 15));
        inner.remove("d5");
        drop(inner);
        let won = index.page(&DealQuery { stage: Some(Stage::ClosedWon), limit: 10, ..DealQuery::default() });
        assert_eq!(ids(&won), ["d1", "d4"]);
        let bob = index.page(&DealQuery { rep: Some("bob"), limit: 10, ..DealQuery::default() });
        assert_eq!(ids(&bob), ["d1", "d2", "d3"]);
        let tallies = index.tallies();
        let total: u64 = tallies.iter().map(|(_, _, t)| t.value).sum();
        assert_eq!((index.read().rows.len(), total), (4, 15 + 20 + 30 + 40));
        let won_new = tallies.iter().find(|(s, t, _)| *s == Stage::ClosedWon && *t == DealType::NewBusiness);
        assert_eq!(won_new.map(|(_, _, t)| *t), Some(DealTally { count: 2, value: 55, weighted: 55 * 50 }));
    }

    #[test]
    fn open_deals_rank_later_stage_sooner_close_larger_value_and_names_find_deals() {
        let at = |id: &str, stage, close: &str, value| {
            let mut d = deal(id, stage, DealType::NewBusiness, "r", value);
            d.close_date = close.into();
            d
        };
        let ranking = DealIndex::build(&[
            at("a", Stage::Proposal, "2026-12-01", 10),
            at("b", Stage::Negotiation, "2027-01-01", 5),
            at("c", Stage::Negotiation, "2026-12-15", 5),
            at("d", Stage::Negotiation, "2026-12-15", 9),
            at("e", Stage::ClosedWon, "2026-11-01", 99),
            at("f", Stage::Prospecting, "2026-11-30", 99),
        ]);
        let ranked = ranking.open_ranked(10);
        assert_eq!(ranked.iter().map(|id| &**id).collect::<Vec<_>>(), ["d", "c", "b", "a", "f"]);
        assert_eq!(ranking.open_ranked(2).len(), 2);
        let index = index();
        let mut named = deal("deal-084", Stage::Proposal, DealType::Renewal, "ann", 7);
        named.account_name = "Lowe's Companies Inc".into();
        named.company_slug = Some("lowes-companies".into());
        index.lock().upsert(&named);
        let ids = |words: &[&str]| {
            let words: Vec<String> = words.iter().map(|w| (*w).to_owned()).collect();
            index.named_by(&words, 10).into_iter().map(|r| r.id.to_string()).collect::<Vec<_>>()
        };
        assert_eq!(ids(&["lowes"]), ["deal-084"]);
        assert_eq!(ids(&["084", "d3"]), ["d3", "deal-084"], "an id's last word, and the account's first");
        assert!(ids(&["companies", "deal"]).is_empty(), "only first words of names and last words of ids");
        index.lock().remove("deal-084");
        assert!(ids(&["lowes"]).is_empty());
    }

    #[test]
    fn an_accounts_deals_are_found_by_its_whole_name_whatever_shares_its_first_word() {
        let index = index();
        let named = |id: &str, account: &str| {
            let mut d = deal(id, Stage::Proposal, DealType::Renewal, "ann", 7);
            account.clone_into(&mut d.account_name);
            d
        };
        for n in 0..600 {
            index.lock().upsert(&named(&format!("n{n:03}"), &format!("Northwind Traders {n}")));
        }
        index.lock().upsert(&named("z1", "Northwind Traders 599"));
        let ids = |name: &str| index.of_account(name, 500).into_iter().map(|r| r.id.to_string()).collect::<Vec<_>>();
        assert_eq!(ids("northwind traders 599"), ["n599", "z1"], "case aside, past 500 deals of its first word");
        assert!(ids("Northwind Traders").is_empty(), "the whole name, not a part");
        index.lock().remove("z1");
        assert_eq!(ids("Northwind Traders 599"), ["n599"]);
    }

    #[test]
    fn a_reps_deals_share_one_name() {
        let index = index();
        let inner = index.read();
        let rep = |id: &str| inner.rows.get(id).map(|row| Arc::clone(&row.rep));
        let (d2, d3) = (rep("d2"), rep("d3"));
        assert!(d2.zip(d3).is_some_and(|(a, b)| Arc::ptr_eq(&a, &b)), "bob's deals hold one Arc");
    }
}
