//! The date a sentence gives its event, as ISO text of the precision stated: `2023-03-08`
//! ("On March 8, 2023"), `2023-03` ("In March 2023"), `2023` ("in fiscal 2023", "during
//! 2023", "the first quarter of 2023"). The first date in the sentence wins, except dates
//! that follow `due`, `until`, `through`, `expire*`, `matur*` or `as of` (a maturity or
//! a reporting date, not when something happened); "the year ended December 31, 2020" is
//! the period of the event and counts. Years outside
//! 1990..=2099 are ignored. Also: how many months an event lies before a filing date.

const MONTHS: [(&str, u32); 21] = [
    ("january", 1),
    ("february", 2),
    ("march", 3),
    ("april", 4),
    ("may", 5),
    ("june", 6),
    ("july", 7),
    ("august", 8),
    ("september", 9),
    ("october", 10),
    ("november", 11),
    ("december", 12),
    ("jan", 1),
    ("feb", 2),
    ("mar", 3),
    ("apr", 4),
    ("aug", 8),
    ("sept", 9),
    ("oct", 10),
    ("nov", 11),
    ("dec", 12),
];

/// Words after which a bare year is the year of an event ("in 2023", "fiscal 2023").
const YEAR_INTRO: [&str; 6] = ["in", "during", "fiscal", "year", "of", "on"];
/// Words that make the following date a term, not an event.
const NOT_EVENT: [&str; 6] = ["due", "until", "through", "expiring", "maturing", "expire"];

/// The event date of a sentence, if it states one.
pub fn event_date(sentence: &str) -> Option<String> {
    let tokens: Vec<String> = sentence
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | '(' | ')' | ';' | ':'))
        .map(|t| t.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase())
        .filter(|t| !t.is_empty())
        .collect();
    for i in 0..tokens.len() {
        if excluded_before(&tokens, i) {
            continue;
        }
        if let Some(date) = month_date(&tokens, i) {
            return Some(date);
        }
        if let Some(y) = year(&tokens[i])
            && i > 0
            && YEAR_INTRO.contains(&tokens[i - 1].as_str())
            && !(i > 1 && month(&tokens[i - 2]).is_some())
        {
            return Some(y.to_string());
        }
    }
    None
}

/// Months from the end of the event's stated period to the filing date (negative when the
/// event lies after the filing, as for a scheduled one). `None` when either is unreadable.
pub fn months_before(event: &str, filed: &str) -> Option<i32> {
    let (fy, fm) = (filed.get(0..4)?.parse::<i32>().ok()?, filed.get(5..7)?.parse::<i32>().ok()?);
    let ey = event.get(0..4)?.parse::<i32>().ok()?;
    let em = event.get(5..7).and_then(|m| m.parse::<i32>().ok()).unwrap_or(12);
    Some((fy * 12 + fm) - (ey * 12 + em))
}

fn excluded_before(tokens: &[String], i: usize) -> bool {
    let before = |k: usize| i.checked_sub(k).and_then(|j| tokens.get(j)).map(String::as_str);
    before(1).is_some_and(|w| NOT_EVENT.contains(&w))
        || (before(2) == Some("as") && before(1) == Some("of"))
        || (before(2).is_some_and(|w| NOT_EVENT.contains(&w)) && before(1).is_some_and(|w| month(w).is_some()))
}

/// `March 8 2023` → `2023-03-08`, `March 2023` → `2023-03` at token `i`.
fn month_date(tokens: &[String], i: usize) -> Option<String> {
    let m = month(&tokens[i])?;
    let next = tokens.get(i + 1)?;
    if let Some(y) = year(next) {
        return Some(format!("{y}-{m:02}"));
    }
    let day: u32 = next.parse().ok().filter(|d| (1..=31).contains(d))?;
    let y = year(tokens.get(i + 2)?)?;
    Some(format!("{y}-{m:02}-{day:02}"))
}

fn month(token: &str) -> Option<u32> {
    MONTHS.iter().find(|(name, _)| *name == token).map(|(_, m)| *m)
}

pub(super) fn year(token: &str) -> Option<u32> {
    let y: u32 = token.parse().ok().filter(|_| token.len() == 4)?;
    (1990..=2099).contains(&y).then_some(y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_of_each_precision() {
        assert_eq!(event_date("On March 8, 2021, we entered into a credit agreement.").as_deref(), Some("2021-03-08"));
        assert_eq!(event_date("In January 2023 we announced a restructuring plan.").as_deref(), Some("2023-01"));
        assert_eq!(
            event_date("In fiscal 2023, we announced the acquisition of Smart Apply, Inc.").as_deref(),
            Some("2023")
        );
        assert_eq!(event_date("We discontinued SameDay City operations during 2023.").as_deref(), Some("2023"));
        assert_eq!(event_date("We opened stores in Texas."), None);
    }

    #[test]
    fn maturities_and_reporting_dates_are_not_event_dates() {
        let s = "We issued 4.125% Senior Notes due April 1, 2029 on March 8, 2021.";
        assert_eq!(event_date(s).as_deref(), Some("2021-03-08"));
        assert_eq!(event_date("As of December 31, 2023, we had 4,000 employees."), None);
        assert_eq!(
            event_date("The facility matures through 2027 and was entered into in 2022.").as_deref(),
            Some("2022")
        );
    }

    #[test]
    fn months_between_event_and_filing() {
        assert_eq!(months_before("2021-01", "2023-10-16"), Some(33));
        assert_eq!(months_before("2022", "2023-02-01"), Some(2));
        assert_eq!(months_before("2024-06-30", "2023-11-01"), Some(-7));
        assert_eq!(months_before("x", "2023-11-01"), None);
    }
}
