//! The words of the memory index and their posting lists, laid out for a million entries: each
//! word's text once in one arena, found through a hash table of word ids, and each word's list
//! of entry ids (increasing) in a 4-byte head — the entry itself while one entry holds the word,
//! which is most words of a large memory (numbers, names, ids), or the place of its list in a
//! side table once several do. About 25 bytes per word where a boxed string in a hash map and
//! a vector per word took about 115 (issue 27: two million words at a million entries).

use std::hash::{BuildHasher, RandomState};

use hashbrown::HashTable;

/// Where one word's entries are, in four bytes: `NONE`; an entry id below `LISTED` (the one
/// entry holding the word); or `LISTED + i`, list `i` of the side table (two entries or more,
/// or one whose id does not fit below `LISTED`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Head(u32);

const LISTED: u32 = 1 << 31;

/// Unheld words (no entry holds them) a renumbering keeps however many the held ones are.
const UNHELD_FLOOR: usize = 1_024;

impl Head {
    const NONE: Head = Head(u32::MAX);

    fn list(self) -> Option<usize> {
        (self != Head::NONE && self.0 >= LISTED).then(|| (self.0 - LISTED) as usize)
    }
}

/// A set of entry ids: what a fold takes off the posting lists, one lookup per posting. A bit
/// per id where the ids are dense (a fold's are), sorted ids where a bitmap would be mostly
/// empty. Measured at a million entries, it did not shorten the fold's 1.4 s hold of the index's
/// lock, so the binary search it replaced was not that cost (docs/memory-brain.md).
pub(crate) enum EntrySet {
    Bits(Vec<u64>),
    Sorted(Vec<u32>),
}

impl EntrySet {
    pub(crate) fn new(ids: &[u32]) -> Self {
        let words = ids.iter().max().map_or(0, |&m| m as usize / 64 + 1);
        if words > ids.len() * 8 + 1024 {
            let mut sorted = ids.to_vec();
            sorted.sort_unstable();
            return EntrySet::Sorted(sorted);
        }
        let mut bits = vec![0u64; words];
        for &id in ids {
            bits[id as usize / 64] |= 1 << (id % 64);
        }
        EntrySet::Bits(bits)
    }

    pub(crate) fn contains(&self, id: u32) -> bool {
        match self {
            EntrySet::Bits(bits) => bits.get(id as usize / 64).is_some_and(|b| b & (1 << (id % 64)) != 0),
            EntrySet::Sorted(ids) => ids.binary_search(&id).is_ok(),
        }
    }
}

/// The posting lists of the words held by two entries or more; a list emptied to one entry or
/// none leaves its place for the next word that needs one.
#[derive(Debug, Default)]
struct Lists {
    lists: Vec<Vec<u32>>,
    free: Vec<u32>,
}

impl Lists {
    /// A head for `ids` (increasing).
    fn head(&mut self, mut ids: Vec<u32>) -> Head {
        match ids.as_slice() {
            [] => return Head::NONE,
            [only] if *only < LISTED => return Head(*only),
            _ => {}
        }
        ids.shrink_to_fit();
        let at = match self.free.pop() {
            Some(at) => {
                if let Some(place) = self.lists.get_mut(at as usize) {
                    *place = ids;
                }
                at
            }
            None => {
                self.lists.push(ids);
                small(self.lists.len() - 1)
            }
        };
        Head(LISTED.saturating_add(at))
    }

    fn slice<'a>(&'a self, head: &'a Head) -> &'a [u32] {
        match head.list() {
            Some(at) => self.lists.get(at).map_or(&[], Vec::as_slice),
            None if *head == Head::NONE => &[],
            None => std::slice::from_ref(&head.0),
        }
    }

    /// Takes the entries of `head` out (its list's place is freed).
    fn take(&mut self, head: Head) -> Vec<u32> {
        match head.list() {
            Some(at) => {
                let ids = self.lists.get_mut(at).map(std::mem::take).unwrap_or_default();
                self.free.push(small(at));
                ids
            }
            None if head == Head::NONE => Vec::new(),
            None => vec![head.0],
        }
    }
}

#[derive(Default)]
pub(crate) struct WordTable {
    /// Every word's text, one after another.
    text: String,
    /// Where word `id` ends in `text` (it starts where word `id - 1` ends).
    ends: Vec<u32>,
    /// Word ids, by the hash of their text.
    ids: HashTable<u32>,
    hasher: RandomState,
    heads: Vec<Head>,
    lists: Lists,
}

fn span_text<'a>(text: &'a str, ends: &[u32], id: u32) -> &'a str {
    let id = id as usize;
    let Some(end) = ends.get(id) else { return "" };
    let start = if id == 0 { 0 } else { ends.get(id - 1).copied().unwrap_or(0) };
    text.get(start as usize..*end as usize).unwrap_or("")
}

/// Clamps a count into a 32-bit id or offset.
fn small(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl WordTable {
    /// Words known (held by an entry, or not yet renumbered away).
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    pub(crate) fn get(&self, word: &str) -> Option<u32> {
        let (text, ends) = (&self.text, &self.ends);
        self.ids.find(self.hasher.hash_one(word), |id| span_text(text, ends, *id) == word).copied()
    }

    /// The id of `word`, given a new one if it has none.
    pub(crate) fn intern(&mut self, word: &str) -> u32 {
        if let Some(id) = self.get(word) {
            return id;
        }
        let id = small(self.ends.len());
        self.text.push_str(word);
        self.ends.push(small(self.text.len()));
        self.heads.push(Head::NONE);
        let (text, ends, hasher) = (&self.text, &self.ends, &self.hasher);
        self.ids.insert_unique(hasher.hash_one(word), id, |id| hasher.hash_one(span_text(text, ends, *id)));
        id
    }

    /// The entries holding word `id`, in increasing order.
    pub(crate) fn postings(&self, id: u32) -> &[u32] {
        self.heads.get(id as usize).map_or(&[], |head| self.lists.slice(head))
    }

    /// Records that entry `entry`, newer than every entry recorded, holds word `id`.
    pub(crate) fn push(&mut self, id: u32, entry: u32) {
        let Some(head) = self.heads.get_mut(id as usize) else { return };
        match head.list().and_then(|at| self.lists.lists.get_mut(at)) {
            Some(list) => list.push(entry),
            None => {
                let mut ids = self.lists.take(*head);
                ids.push(entry);
                *head = self.lists.head(ids);
            }
        }
    }

    /// Takes the entries `gone` off word `id`'s list in one pass over it: a fold removes tens
    /// of thousands of entries at once, and taking them off one by one shifted a long list once
    /// per entry (minutes under the index's lock at a million entries).
    pub(crate) fn remove_all(&mut self, id: u32, gone: &EntrySet) {
        let Some(head) = self.heads.get_mut(id as usize) else { return };
        let kept = |e: &u32| !gone.contains(*e);
        match head.list().and_then(|at| self.lists.lists.get_mut(at)) {
            Some(list) => {
                list.retain(kept);
                if list.len() < 2 {
                    let ids = self.lists.take(*head);
                    *head = self.lists.head(ids);
                }
            }
            None => {
                if *head != Head::NONE && !kept(&head.0) {
                    *head = Head::NONE;
                }
            }
        }
    }

    /// Renumbers the entries: entry `e` becomes `new_entry[e]` (`u32::MAX`: gone). Each list is
    /// mapped in place (and sorted again if the new numbering reorders it). A word no entry
    /// holds any more keeps its id and text until such words outnumber the held ones; then the
    /// table is rebuilt without them (`forget_unheld`). Re-interning every word at every
    /// renumbering was most of its cost, paid under the index's exclusive lock.
    pub(crate) fn renumber_entries(&mut self, new_entry: &[u32]) {
        let renumbered = |e: &mut u32| {
            *e = new_entry.get(*e as usize).copied().unwrap_or(u32::MAX);
            *e != u32::MAX
        };
        let Self { heads, lists, .. } = self;
        for head in heads.iter_mut() {
            if let Some(list) = head.list().and_then(|at| lists.lists.get_mut(at)) {
                list.retain_mut(renumbered);
                if !list.is_sorted() {
                    list.sort_unstable();
                }
                if list.len() < 2 {
                    let ids = lists.take(*head);
                    *head = lists.head(ids);
                } else if list.capacity() > list.len() + list.len() / 4 {
                    // Lists grown by pushes (a load, a year of writes) keep at most a quarter
                    // spare: at a million entries the spare room was tens of MB.
                    list.shrink_to_fit();
                }
            } else if *head != Head::NONE {
                let mut entry = head.0;
                *head = match renumbered(&mut entry) {
                    true if entry < LISTED => Head(entry),
                    true => lists.head(vec![entry]),
                    false => Head::NONE,
                };
            }
        }
        let unheld = self.heads.iter().filter(|head| **head == Head::NONE).count();
        if unheld > UNHELD_FLOOR && unheld > self.heads.len() / 2 {
            self.forget_unheld();
        }
    }

    /// Rebuilds the table with only the words some entry holds, their lists moved as they are.
    fn forget_unheld(&mut self) {
        let mut old = std::mem::take(self);
        for (id, head) in old.heads.iter().enumerate() {
            if *head == Head::NONE {
                continue;
            }
            let entries = old.lists.take(*head);
            let kept = self.intern(span_text(&old.text, &old.ends, small(id)));
            let head = self.lists.head(entries);
            if let Some(place) = self.heads.get_mut(kept as usize) {
                *place = head;
            }
        }
        self.shrink_to_fit();
    }

    /// Gives back the spare room of the table's vectors and hash table (after a load, which
    /// grew them by doubling, and after a rebuild).
    pub(crate) fn shrink_to_fit(&mut self) {
        self.text.shrink_to_fit();
        self.ends.shrink_to_fit();
        self.heads.shrink_to_fit();
        self.lists.lists.shrink_to_fit();
        let (text, ends, hasher) = (&self.text, &self.ends, &self.hasher);
        self.ids.shrink_to_fit(|id| hasher.hash_one(span_text(text, ends, *id)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_found_by_text_and_lists_stay_sorted_inline_or_not() {
        let mut table = WordTable::default();
        let (alpha, beta) = (table.intern("alpha"), table.intern("beta"));
        assert_eq!((table.intern("alpha"), table.get("beta"), table.get("gamma")), (alpha, Some(beta), None));
        for entry in [1, 4, 9] {
            table.push(alpha, entry);
        }
        table.push(beta, 4);
        assert_eq!((table.postings(alpha), table.postings(beta)), (&[1, 4, 9][..], &[4][..]));
        table.remove_all(alpha, &EntrySet::new(&[4]));
        table.remove_all(alpha, &EntrySet::new(&[1]));
        table.remove_all(beta, &EntrySet::new(&[4]));
        assert_eq!((table.postings(alpha), table.postings(beta)), (&[9][..], &[][..]));
        // Entries renumbered in reverse (9 becomes 0): beta, held by none, keeps its id while
        // unheld words are few, and is forgotten when the table is rebuilt without them.
        table.push(alpha, 12);
        let mut new_entry = vec![u32::MAX; 13];
        (new_entry[9], new_entry[12]) = (1, 0);
        table.renumber_entries(&new_entry);
        assert_eq!((table.len(), table.get("beta")), (2, Some(beta)));
        assert_eq!(table.get("alpha").map(|w| table.postings(w)), Some(&[0, 1][..]), "sorted again");
        table.forget_unheld();
        assert_eq!((table.len(), table.get("beta")), (1, None));
        assert_eq!(table.get("alpha").map(|w| table.postings(w)), Some(&[0, 1][..]));
        assert_eq!(std::mem::size_of::<Head>(), 4, "a word's head is four bytes");
    }

    #[test]
    fn a_list_emptied_to_one_entry_goes_inline_and_its_place_is_reused() {
        let mut table = WordTable::default();
        let (a, b) = (table.intern("a"), table.intern("b"));
        for entry in 0..5 {
            table.push(a, entry);
        }
        for entry in [0, 2, 3, 4] {
            table.remove_all(a, &EntrySet::new(&[entry]));
        }
        assert_eq!(table.postings(a), &[1]);
        assert!(table.heads[a as usize].list().is_none(), "one entry is held inline");
        table.push(b, 7);
        table.push(b, 8);
        assert_eq!(table.lists.lists.len(), 1, "b's list took the place a's left");
        assert_eq!(table.postings(b), &[7, 8]);
        table.remove_all(b, &EntrySet::new(&[9]));
        assert_eq!(table.postings(b), &[7, 8], "removing an entry not held changes nothing");
    }

    #[test]
    fn a_renumbering_forgets_the_unheld_words_once_they_outnumber_the_held() {
        let mut table = WordTable::default();
        let kept = table.intern("kept");
        table.push(kept, 0);
        let unheld = UNHELD_FLOOR + 1;
        for n in 0..unheld {
            let w = table.intern(&format!("w{n}"));
            table.push(w, 1 + small(n));
        }
        let mut new_entry = vec![u32::MAX; unheld + 1];
        new_entry[0] = 0;
        table.renumber_entries(&new_entry);
        assert_eq!((table.len(), table.get("w5")), (1, None), "every entry but the first was gone");
        assert_eq!(table.postings(table.get("kept").unwrap_or(u32::MAX)), &[0]);
    }

    #[test]
    fn an_entry_set_holds_its_ids_dense_or_sparse() {
        for ids in [vec![0, 3, 64, 65, 1_000], vec![7, LISTED + 3, 12]] {
            let set = EntrySet::new(&ids);
            for id in 0..1_100 {
                assert_eq!(set.contains(id), ids.contains(&id), "{id}");
            }
            assert!(set.contains(*ids.iter().max().unwrap_or(&0)));
            assert!(!set.contains(u32::MAX));
        }
        assert!(matches!(EntrySet::new(&[LISTED + 3]), EntrySet::Sorted(_)), "no bitmap of 2^31 bits");
        assert!(!EntrySet::new(&[]).contains(0));
    }

    #[test]
    fn many_entries_come_off_a_list_in_one_pass() {
        let mut table = WordTable::default();
        let w = table.intern("w");
        for entry in 0..1_000 {
            table.push(w, entry);
        }
        let gone: Vec<u32> = (0..1_000).filter(|e| e % 3 != 0).collect();
        table.remove_all(w, &EntrySet::new(&gone));
        assert_eq!(table.postings(w), (0..1_000).step_by(3).collect::<Vec<u32>>());
        let all_but_one: Vec<u32> = (0..1_000).step_by(3).skip(1).collect();
        table.remove_all(w, &EntrySet::new(&all_but_one));
        assert_eq!(table.postings(w), &[0]);
        assert!(table.heads[w as usize].list().is_none(), "the one left is held inline");
    }

    #[test]
    fn an_entry_id_past_the_inline_range_is_listed() {
        let mut table = WordTable::default();
        let w = table.intern("w");
        table.push(w, LISTED + 3);
        assert_eq!(table.postings(w), &[LISTED + 3]);
        table.push(w, LISTED + 5);
        table.remove_all(w, &EntrySet::new(&[LISTED + 3]));
        assert_eq!(table.postings(w), &[LISTED + 5]);
        table.remove_all(w, &EntrySet::new(&[LISTED + 5]));
        assert_eq!(table.postings(w), &[] as &[u32]);
    }
}
