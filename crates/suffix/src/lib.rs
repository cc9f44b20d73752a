//! The registrable domain of a host name by the Public Suffix List.
//!
//! The list is data: `public_suffix_list.txt` holds the rules of Mozilla's list (MPL-2.0) as the
//! `psl` crate 2.1.247 ships them, one per line — `co.uk`, a wildcard `*.ck`, an exception
//! `!www.ck` — read into three sets on first use. The `psl` crate compiles the same rules into
//! one generic function per suffix: 0.66 MB of the binary for a lookup that runs once per
//! domain parsed (issue 27). A test holds this lookup equal to `psl`'s (a dev-dependency) on
//! every rule, hosts below each, odd input and the seed's domains. Updating the list is
//! replacing the file with a newer `psl` release's `data/rules.txt` and bumping the
//! dev-dependency to that release.
//!
//! As in `psl`, labels are compared byte for byte: no case folding and no punycode (the list's
//! internationalised rules match only hosts written in Unicode); a host no rule covers has its
//! last label as its public suffix (the list's implicit `*` rule).

use std::collections::HashSet;
use std::sync::LazyLock;

/// The list, one rule per line.
const LIST: &str = include_str!("../public_suffix_list.txt");

type Set = HashSet<&'static str, foldhash::fast::FixedState>;

/// The rules by what they match.
struct Rules {
    /// Suffixes named as they are (`co.uk`).
    exact: Set,
    /// The parents of wildcard rules (`ck` for `*.ck`): any one label below them is a suffix.
    wildcard: Set,
    /// Exceptions without their `!` (`www.ck`): the suffix is their parent.
    exception: Set,
}

static RULES: LazyLock<Rules> = LazyLock::new(|| {
    let mut rules = Rules { exact: Set::default(), wildcard: Set::default(), exception: Set::default() };
    for line in LIST.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with("//")) {
        if let Some(parent) = line.strip_prefix("*.") {
            rules.wildcard.insert(parent);
        } else if let Some(name) = line.strip_prefix('!') {
            rules.exception.insert(name);
        } else {
            rules.exact.insert(line);
        }
    }
    rules
});

/// The registrable domain of `host` (`investor.apple.com` → `apple.com`,
/// `shop.example.co.uk` → `example.co.uk`), or `None` when `host` is itself a public suffix or
/// not a domain name. One trailing dot is ignored (and not returned).
pub fn registrable_domain(host: &str) -> Option<&str> {
    let name = host.strip_suffix('.').unwrap_or(host);
    let suffix = public_suffix_len(name);
    if suffix == 0 || name.len() < suffix + 2 {
        return None;
    }
    // The label before the suffix's dot, with the suffix.
    let below = name.get(..name.len() - suffix - 1)?;
    let root = below.rsplit('.').next()?;
    name.get(name.len() - suffix - 1 - root.len()..)
}

/// The length of `name`'s public suffix: the longest rule that matches it, an exception's parent
/// as soon as an exception matches, else its last label.
fn public_suffix_len(name: &str) -> usize {
    let rules = &*RULES;
    let mut suffix = name.rsplit('.').next().map_or(0, str::len);
    // Each candidate is `name` from the start of a label to its end, shortest first.
    let starts = name.rmatch_indices('.').map(|(dot, _)| dot + 1).chain(std::iter::once(0));
    let mut parent: Option<&str> = None;
    for start in starts {
        let candidate = &name[start..];
        if rules.exception.contains(candidate) {
            return parent.map_or(0, str::len);
        }
        if rules.exact.contains(candidate) || parent.is_some_and(|p| rules.wildcard.contains(p)) {
            suffix = candidate.len();
        }
        parent = Some(candidate);
    }
    suffix
}

#[cfg(test)]
mod tests {
    use super::{LIST, registrable_domain};

    #[test]
    fn the_registrable_domain_is_one_label_below_the_public_suffix() {
        assert_eq!(registrable_domain("investor.apple.com"), Some("apple.com"));
        assert_eq!(registrable_domain("shop.example.co.uk"), Some("example.co.uk"));
        assert_eq!(registrable_domain("co.uk"), None);
        assert_eq!(registrable_domain("example.com."), Some("example.com"));
        // A wildcard makes every label below it a suffix; an exception undoes it.
        assert_eq!(registrable_domain("a.b.ck"), Some("a.b.ck"));
        assert_eq!(registrable_domain("a.www.ck"), Some("www.ck"));
        // No rule: the last label is the suffix.
        assert_eq!(registrable_domain("a.b.notatld"), Some("b.notatld"));
    }

    /// The hosts the comparison with `psl` reads: for every rule, the rule itself (a wildcard's
    /// `*` as a label) and one and two labels below it; odd input; the seed's domains.
    fn hosts() -> Vec<String> {
        let mut hosts = Vec::new();
        for rule in LIST.lines().map(str::trim).filter(|l| !l.is_empty()) {
            let rule = rule.trim_start_matches('!').replace('*', "x");
            for host in [rule.clone(), format!("a.{rule}"), format!("b.a.{rule}"), format!("a.{rule}.")] {
                hosts.push(host.to_uppercase());
                hosts.push(host);
            }
        }
        let odd =
            ["", ".", "..", "com", "com.", ".com", "a..com", "a.com..", "-.com", "a b.com", "xn--p1ai", "a.xn--p1ai"];
        hosts.extend(odd.map(String::from));
        hosts.extend(["a.рф", "пример.рф", "a.b.c.d.e.f.example.co.uk", "1.2.3.4", "localhost"].map(String::from));
        let seed = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../seed/companies.jsonl"));
        let seed = seed.unwrap_or_default();
        let domains: Vec<&str> =
            seed.split("\"domain\":\"").skip(1).filter_map(|rest| rest.split('"').next()).collect();
        assert!(domains.len() > 500, "the seed's domains are read ({})", domains.len());
        for domain in domains {
            hosts.push(domain.to_owned());
            hosts.push(format!("investor.{domain}"));
        }
        hosts
    }

    #[test]
    fn the_list_read_as_data_answers_as_the_psl_crate_does() {
        let hosts = hosts();
        assert!(hosts.len() > 80_000, "{} hosts", hosts.len());
        // The one known difference: after two trailing dots `psl` answers a suffix with a dot
        // ("a.com.." → "com."); here no domain.
        assert_eq!((registrable_domain("a.com.."), psl::domain_str("a.com..")), (None, Some("com.")));
        let differ: Vec<_> = hosts
            .iter()
            .filter(|h| !h.ends_with(".."))
            .filter(|h| registrable_domain(h) != psl::domain_str(h))
            .map(|h| format!("{h}: {:?} here, {:?} psl", registrable_domain(h), psl::domain_str(h)))
            .take(20)
            .collect();
        assert!(differ.is_empty(), "{}", differ.join("\n"));
    }
}
