//! The words of the memory index and their posting lists, laid out for a million entries: each
//! word's text once in one arena, found through a hash table of word ids, and each word's list
//! of entry ids (increasing) kept inline while one entry holds it — which is most words of a
//! large memory (numbers, names, ids). About 45 bytes per word where a boxed string in a hash
//! map and a vector per word took about 115 (issue 27: two million words at a million entries).

use std::hash::{BuildHasher, RandomState};

use hashbrown::HashTable;

/// The entries holding one word, in increasing id order.
#[derive(Debug, Default)]
enum Postings {
    #[default]
    None,
    One(u32),
    Many(Vec<u32>),
}

impl Postings {
    fn as_slice(&self) -> &[u32] {
        match self {
            Postings::None => &[],
            Postings::One(id) => std::slice::from_ref(id),
            Postings::Many(ids) => ids,
        }
    }

    /// Adds `id`, larger than every id held.
    fn push(&mut self, id: u32) {
        *self = match std::mem::take(self) {
            Postings::None => Postings::One(id),
            Postings::One(first) => Postings::Many(vec![first, id]),
            Postings::Many(mut ids) => {
                ids.push(id);
                Postings::Many(ids)
            }
        };
    }

    fn remove(&mut self, id: u32) {
        match self {
            Postings::One(held) if *held == id => *self = Postings::None,
            Postings::Many(ids) => {
                if let Ok(at) = ids.binary_search(&id) {
                    ids.remove(at);
                }
                if let [only] = ids.as_slice() {
                    *self = Postings::One(*only);
                }
            }
            _ => {}
        }
    }
}

#[derive(Default)]
pub(crate) struct WordTable {
    /// Every word's text, one after another.
    text: String,
    /// Where word `id` lies in `text`.
    spans: Vec<(u32, u32)>,
    /// Word ids, by the hash of their text.
    ids: HashTable<u32>,
    hasher: RandomState,
    postings: Vec<Postings>,
}

fn span_text<'a>(text: &'a str, spans: &[(u32, u32)], id: u32) -> &'a str {
    let Some((start, end)) = spans.get(id as usize) else { return "" };
    text.get(*start as usize..*end as usize).unwrap_or("")
}

/// Clamps a count into a 32-bit id or offset.
fn small(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl WordTable {
    /// Words known (held by an entry, or not yet renumbered away).
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.spans.len()
    }

    pub(crate) fn get(&self, word: &str) -> Option<u32> {
        let (text, spans) = (&self.text, &self.spans);
        self.ids.find(self.hasher.hash_one(word), |id| span_text(text, spans, *id) == word).copied()
    }

    /// The id of `word`, given a new one if it has none.
    pub(crate) fn intern(&mut self, word: &str) -> u32 {
        if let Some(id) = self.get(word) {
            return id;
        }
        let id = small(self.spans.len());
        let start = small(self.text.len());
        self.text.push_str(word);
        self.spans.push((start, small(self.text.len())));
        self.postings.push(Postings::None);
        let (text, spans, hasher) = (&self.text, &self.spans, &self.hasher);
        self.ids.insert_unique(hasher.hash_one(word), id, |id| hasher.hash_one(span_text(text, spans, *id)));
        id
    }

    /// The entries holding word `id`, in increasing order.
    pub(crate) fn postings(&self, id: u32) -> &[u32] {
        self.postings.get(id as usize).map_or(&[], Postings::as_slice)
    }

    /// Records that entry `entry`, newer than every entry recorded, holds word `id`.
    pub(crate) fn push(&mut self, id: u32, entry: u32) {
        if let Some(list) = self.postings.get_mut(id as usize) {
            list.push(entry);
        }
    }

    pub(crate) fn remove(&mut self, id: u32, entry: u32) {
        if let Some(list) = self.postings.get_mut(id as usize) {
            list.remove(entry);
        }
    }

    /// Renumbers the entries: entry `e` becomes `new_entry[e]` (`u32::MAX`: gone). Each list is
    /// mapped in place (and sorted again if the new numbering reorders it); the words no entry
    /// holds any more are forgotten and the others renumbered.
    pub(crate) fn renumber_entries(&mut self, new_entry: &[u32]) {
        let old = std::mem::take(self);
        let renumbered = |e: &mut u32| {
            *e = new_entry.get(*e as usize).copied().unwrap_or(u32::MAX);
            *e != u32::MAX
        };
        for (id, list) in old.postings.into_iter().enumerate() {
            let list = match list {
                Postings::None => continue,
                Postings::One(mut entry) => {
                    if !renumbered(&mut entry) {
                        continue;
                    }
                    Postings::One(entry)
                }
                Postings::Many(mut entries) => {
                    entries.retain_mut(renumbered);
                    if !entries.is_sorted() {
                        entries.sort_unstable();
                    }
                    match entries.as_slice() {
                        [] => continue,
                        [only] => Postings::One(*only),
                        _ => {
                            entries.shrink_to_fit();
                            Postings::Many(entries)
                        }
                    }
                }
            };
            let kept = self.intern(span_text(&old.text, &old.spans, small(id)));
            if let Some(place) = self.postings.get_mut(kept as usize) {
                *place = list;
            }
        }
        self.text.shrink_to_fit();
        self.spans.shrink_to_fit();
        self.postings.shrink_to_fit();
        let (text, spans, hasher) = (&self.text, &self.spans, &self.hasher);
        self.ids.shrink_to_fit(|id| hasher.hash_one(span_text(text, spans, *id)));
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
        table.remove(alpha, 4);
        table.remove(alpha, 1);
        table.remove(beta, 4);
        assert_eq!((table.postings(alpha), table.postings(beta)), (&[9][..], &[][..]));
        // Entries renumbered in reverse (9 becomes 0): beta, held by none, is forgotten.
        table.push(alpha, 12);
        let mut new_entry = vec![u32::MAX; 13];
        (new_entry[9], new_entry[12]) = (1, 0);
        table.renumber_entries(&new_entry);
        assert_eq!((table.len(), table.get("beta")), (1, None));
        assert_eq!(table.get("alpha").map(|w| table.postings(w)), Some(&[0, 1][..]), "sorted again");
        assert!(std::mem::size_of::<Postings>() <= 24, "a list is no bigger than a vector");
    }
}
