//! The item headings of an 8-K ("Item 5.02 Departure of Directors or Certain Officers; …") as
//! evidence of what its sentences can state. The company chose the item under which it reports
//! an event, so a sentence under Item 5.02 states an officer or director change, or nothing: the
//! salary, the age and the biography around it are context. Under each item only the kinds
//! listed here are kept; a sentence whose verdict is another kind is no signal. Items not listed
//! (7.01 Regulation FD, 8.01 other events, …) restrict nothing.

use gtms_companies::domain::SignalKind::{self, *};

/// An 8-K item and the kinds of signal its sentences may state (none: no signal at all).
struct Item {
    number: &'static str,
    kinds: &'static [SignalKind],
}

const ITEMS: [Item; 13] = [
    // Material agreements entered into or ended.
    Item { number: "1.01", kinds: &[Partnership, Customer, CapitalRaise, Acquisition, Divestiture] },
    Item { number: "1.02", kinds: &[Partnership, Customer, CapitalRaise, Acquisition, Divestiture] },
    // Completed acquisition or disposition of assets.
    Item { number: "2.01", kinds: &[Acquisition, Divestiture] },
    // Results of operations: guidance at most.
    Item { number: "2.02", kinds: &[Outlook] },
    // A direct financial obligation created.
    Item { number: "2.03", kinds: &[CapitalRaise] },
    // Costs of exit or disposal activities.
    Item { number: "2.05", kinds: &[Restructuring] },
    // Unregistered sales of equity.
    Item { number: "3.02", kinds: &[CapitalRaise, Acquisition] },
    // Officers and directors.
    Item { number: "5.02", kinds: &[LeadershipChange] },
    // Articles and bylaws, fiscal year, code of ethics, shareholder votes, exhibits: no signal.
    Item { number: "5.03", kinds: &[] },
    Item { number: "5.05", kinds: &[] },
    Item { number: "5.07", kinds: &[] },
    Item { number: "9.01", kinds: &[] },
    // Shell company status change: an acquisition (a reverse merger) if anything.
    Item { number: "5.06", kinds: &[Acquisition] },
];

/// The item a line of an 8-K opens ("Item 5.02 …", "ITEM 2.01. Completion of …"), as its
/// number, when it is a heading.
pub fn heading(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix("Item").or_else(|| line.trim_start().strip_prefix("ITEM"))?;
    let number = rest.trim_start().get(..4)?;
    let b = number.as_bytes();
    let shaped = b[0].is_ascii_digit() && b[1] == b'.' && b[2].is_ascii_digit() && b[3].is_ascii_digit();
    shaped.then_some(number)
}

/// Whether a sentence of `kind` may stand under `item` (any kind under an item not listed).
pub fn allows(item: &str, kind: SignalKind) -> bool {
    ITEMS.iter().find(|i| i.number == item).is_none_or(|i| i.kinds.contains(&kind))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_are_read_in_either_case_with_their_number() {
        assert_eq!(
            heading("Item 5.02 Departure of Directors or Certain Officers; Election of Directors"),
            Some("5.02")
        );
        assert_eq!(heading("ITEM 2.01. COMPLETION OF ACQUISITION OR DISPOSITION OF ASSETS"), Some("2.01"));
        assert_eq!(heading("Items to be discussed"), None);
        assert_eq!(heading("Item 1A. Risk Factors"), None);
    }

    #[test]
    fn an_item_keeps_only_its_kinds() {
        assert!(allows("5.02", LeadershipChange) && !allows("5.02", CapitalRaise));
        assert!(!allows("9.01", Acquisition) && allows("2.01", Divestiture));
        assert!(allows("8.01", Product), "an item not listed restricts nothing");
    }
}
