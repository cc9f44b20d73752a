//! The best hits and a bounded count over posting lists: lists of entry ids in increasing
//! order, where a larger id is a more recent write (`memory_index` numbers its entries so). A
//! search wants the entries holding the most asked words, the most recent first. Reading the
//! lists from their newest end with the WAND rule (an id can still enter the best `limit` only
//! if at least one list more than the worst kept hit holds it; the lists that cannot reach that
//! many skip ahead by binary search) answers in a few steps when a word is in most entries, and
//! never reads more than the lists (issue 27: a two-word search over a million entries).
//! Counting is bounded the same way: exact up to `COUNT_WORK` list elements, at least so many
//! past it.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// List elements (or entries) a count reads before it settles for "at least".
pub(crate) const COUNT_WORK: usize = 50_000;

/// One entry found: how many of the asked words it holds, and its id. Ordered worst to best:
/// fewer words, then older.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Hit {
    pub score: u32,
    pub id: u32,
}

/// How many entries match: exactly, or at least `count` when counting them all would read
/// more than `COUNT_WORK`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Total {
    pub count: usize,
    pub exact: bool,
}

impl Total {
    pub const NONE: Total = Total { count: 0, exact: true };
}

/// The best `limit` hits, kept while a walk goes from newer to older ids.
struct Best {
    limit: usize,
    kept: BinaryHeap<Reverse<Hit>>,
}

impl Best {
    fn new(limit: usize) -> Self {
        Best { limit, kept: BinaryHeap::with_capacity(limit + 1) }
    }

    /// How many words an older id needs to enter: one more than the worst kept hit once full
    /// (an equal score loses to the newer hit already kept).
    fn needs(&self) -> u32 {
        match self.kept.peek() {
            Some(Reverse(worst)) if self.kept.len() >= self.limit => worst.score + 1,
            _ => 1,
        }
    }

    fn offer(&mut self, hit: Hit) {
        if hit.score >= self.needs() {
            self.kept.push(Reverse(hit));
            if self.kept.len() > self.limit {
                self.kept.pop();
            }
        }
    }

    fn best_first(self) -> Vec<Hit> {
        let mut hits: Vec<Hit> = self.kept.into_iter().map(|Reverse(h)| h).collect();
        hits.sort_unstable_by(|a, b| b.cmp(a));
        hits
    }
}

/// A posting list read from its largest id down.
struct Back<'a> {
    list: &'a [u32],
    end: usize,
}

impl Back<'_> {
    fn head(&self) -> Option<u32> {
        self.end.checked_sub(1).and_then(|at| self.list.get(at)).copied()
    }

    fn step(&mut self) {
        self.end = self.end.saturating_sub(1);
    }

    /// Drops the ids above `id`.
    fn skip_to(&mut self, id: u32) {
        self.end = self.list.get(..self.end).map_or(0, |rest| rest.partition_point(|x| *x <= id));
    }
}

/// The best `limit` ids in the union of `lists` that `admits` accepts: most lists holding
/// them, then the largest id; best first.
pub(crate) fn best(lists: &[&[u32]], limit: usize, admits: impl Fn(u32) -> bool) -> Vec<Hit> {
    if limit == 0 {
        return Vec::new();
    }
    let mut cursors: Vec<Back> = lists.iter().map(|list| Back { list, end: list.len() }).collect();
    let mut best = Best::new(limit);
    loop {
        let needs = best.needs() as usize;
        cursors.retain(|c| c.head().is_some());
        cursors.sort_unstable_by_key(|c| Reverse(c.head()));
        // The pivot: the largest id that `needs` lists can still hold.
        let Some(pivot) = cursors.get(needs - 1).and_then(Back::head) else { break };
        if cursors.first().and_then(Back::head) == Some(pivot) {
            let mut score = 0;
            for cursor in cursors.iter_mut().filter(|c| c.head() == Some(pivot)) {
                cursor.step();
                score += 1;
            }
            if admits(pivot) {
                best.offer(Hit { score, id: pivot });
            }
        } else {
            for cursor in cursors.iter_mut().take(needs - 1) {
                cursor.skip_to(pivot);
            }
        }
    }
    best.best_first()
}

/// The best `limit` of `ids` (newest first) by `score` (0: not a hit), and how many are hits;
/// `most` is the highest score there is, so the walk stops once the best are settled and
/// `COUNT_WORK` ids are counted.
pub(crate) fn best_of(ids: &[u32], most: u32, limit: usize, score: impl Fn(u32) -> u32) -> (Total, Vec<Hit>) {
    let mut best = Best::new(limit.max(1));
    let mut found = 0;
    for (read, id) in ids.iter().enumerate() {
        if read >= COUNT_WORK && (limit == 0 || best.needs() > most) {
            return (Total { count: found, exact: false }, best_hits(best, limit));
        }
        let score = score(*id);
        if score > 0 {
            found += 1;
            best.offer(Hit { score, id: *id });
        }
    }
    (Total { count: found, exact: true }, best_hits(best, limit))
}

fn best_hits(best: Best, limit: usize) -> Vec<Hit> {
    if limit == 0 { Vec::new() } else { best.best_first() }
}

/// The union of `lists` in increasing id order, each id with how many lists hold it.
pub(crate) struct Union<'a> {
    lists: &'a [&'a [u32]],
    at: Vec<usize>,
    /// List elements consumed so far.
    read: usize,
}

pub(crate) fn union<'a>(lists: &'a [&'a [u32]]) -> Union<'a> {
    Union { lists, at: vec![0; lists.len()], read: 0 }
}

impl Iterator for Union<'_> {
    type Item = Hit;

    fn next(&mut self) -> Option<Hit> {
        let id = self.lists.iter().zip(&self.at).filter_map(|(list, i)| list.get(*i)).min().copied()?;
        let mut score = 0;
        for (list, i) in self.lists.iter().zip(self.at.iter_mut()) {
            if list.get(*i) == Some(&id) {
                *i += 1;
                score += 1;
            }
        }
        self.read += score as usize;
        Some(Hit { score, id })
    }
}

/// How many ids of the union of `lists` `admits` accepts, reading at most `COUNT_WORK` list
/// elements.
pub(crate) fn count(lists: &[&[u32]], admits: impl Fn(u32) -> bool) -> Total {
    let mut ids = union(lists);
    let mut found = 0;
    while ids.read < COUNT_WORK {
        let Some(hit) = ids.next() else { return Total { count: found, exact: true } };
        found += usize::from(admits(hit.id));
    }
    Total { count: found, exact: ids.next().is_none() }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The best `limit` by reading everything: the answer `best` must give.
    fn brute(lists: &[&[u32]], limit: usize, admits: impl Fn(u32) -> bool) -> Vec<Hit> {
        let mut all = std::collections::BTreeMap::<u32, u32>::new();
        for id in lists.iter().flat_map(|l| l.iter()) {
            *all.entry(*id).or_default() += 1;
        }
        let mut hits: Vec<Hit> =
            all.into_iter().filter(|(id, _)| admits(*id)).map(|(id, score)| Hit { score, id }).collect();
        hits.sort_unstable_by(|a, b| b.cmp(a));
        hits.truncate(limit);
        hits
    }

    #[test]
    fn the_walk_from_the_newest_end_finds_what_reading_everything_finds() {
        // Lists of every shape: a word in nearly every entry, in every third, in a few old ones.
        let common: Vec<u32> = (0..3_000).filter(|i| i % 50 != 7).collect();
        let third: Vec<u32> = (0..3_000).filter(|i| i % 3 == 0).collect();
        let rare: Vec<u32> = vec![4, 90, 91, 700, 1_500];
        let sets: [&[&[u32]]; 5] =
            [&[&common], &[&common, &third], &[&common, &rare], &[&rare, &third], &[&common, &third, &rare]];
        for lists in sets {
            for limit in [1, 3, 50, 10_000] {
                assert_eq!(best(lists, limit, |_| true), brute(lists, limit, |_| true), "{limit}");
                let odd = |id: u32| id % 2 == 1;
                assert_eq!(best(lists, limit, odd), brute(lists, limit, odd), "{limit}, odd ids");
            }
        }
        assert!(best(&[&common], 0, |_| true).is_empty());
        assert!(best(&[], 5, |_| true).is_empty());
    }

    #[test]
    fn counts_are_exact_up_to_the_work_bound_and_a_floor_past_it() {
        let a: Vec<u32> = (0..1_000).collect();
        let b: Vec<u32> = (500..1_500).collect();
        assert_eq!(count(&[&a, &b], |_| true), Total { count: 1_500, exact: true });
        assert_eq!(count(&[&a, &b], |id| id < 10), Total { count: 10, exact: true });
        let huge: Vec<u32> = (0..2 * COUNT_WORK as u32).collect();
        let floor = count(&[&huge], |_| true);
        assert!(!floor.exact && floor.count >= COUNT_WORK, "{floor:?}");
    }

    #[test]
    fn a_walk_over_given_ids_stops_once_settled_and_counted() {
        let ids: Vec<u32> = (0..3 * COUNT_WORK as u32).rev().collect();
        let (total, hits) = best_of(&ids, 2, 3, |id| if id % 2 == 0 { 2 } else { 1 });
        let newest = 3 * COUNT_WORK as u32 - 2;
        assert_eq!(hits, [newest, newest - 2, newest - 4].map(|id| Hit { score: 2, id }));
        assert_eq!(total, Total { count: COUNT_WORK, exact: false });
        let few: Vec<u32> = vec![9, 5, 2];
        let (total, hits) = best_of(&few, 1, 10, |id| u32::from(id != 5));
        assert_eq!(
            (total, hits),
            (Total { count: 2, exact: true }, vec![Hit { score: 1, id: 9 }, Hit { score: 1, id: 2 }])
        );
    }
}
