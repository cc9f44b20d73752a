//! The demo model reads the Brain's context back from the text a real model would get: its
//! `## ` sections and their `- [citation] text` bullets, the text's fields split at ` · `
//! (`brain::context` writes them so).

/// One context bullet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line<'a> {
    pub cite: &'a str,
    pub text: &'a str,
}

impl<'a> Line<'a> {
    /// The text's ` · `-separated fields.
    pub fn fields(&self) -> Vec<&'a str> {
        self.text.split(" · ").collect()
    }

    /// The field after `label ` (e.g. `close` in `close 2026-12-01`).
    pub fn field(&self, label: &str) -> Option<&'a str> {
        self.fields().into_iter().find_map(|f| f.strip_prefix(label).and_then(|r| r.strip_prefix(' ')))
    }

    /// A memory citation: `scope/key@version`.
    pub fn is_memory(&self) -> bool {
        self.cite.contains('/') && self.cite.contains('@') && !self.cite.contains(' ')
    }

    /// The filing a company fact's citation names (`<legal name>, <form> filed <date>: <url>`),
    /// as a Markdown link `[<form> filed <date>](<url>)`.
    pub fn filing_link(&self) -> Option<String> {
        let (head, url) = self.cite.rsplit_once(": ")?;
        let (name_form, filed) = head.rsplit_once(" filed ")?;
        let form = name_form.rsplit_once(", ").map_or(name_form, |(_, form)| form);
        Some(format!("[{form} filed {filed}]({url})"))
    }
}

/// One `## ` section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section<'a> {
    pub title: &'a str,
    pub lines: Vec<Line<'a>>,
}

/// The context's sections in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Context<'a> {
    pub sections: Vec<Section<'a>>,
}

impl<'a> Context<'a> {
    pub fn parse(system: &'a str) -> Self {
        let mut sections = vec![Section { title: "", lines: Vec::new() }];
        for raw in system.lines() {
            if let Some(title) = raw.strip_prefix("## ") {
                sections.push(Section { title, lines: Vec::new() });
            } else if let Some((cite, text)) = raw.strip_prefix("- [").and_then(|r| r.split_once("] "))
                && let Some(last) = sections.last_mut()
            {
                last.lines.push(Line { cite, text });
            }
        }
        Self { sections }
    }

    /// The section whose title starts with `prefix`.
    pub fn section(&self, prefix: &str) -> Option<&Section<'a>> {
        self.sections.iter().find(|s| s.title.starts_with(prefix))
    }

    /// The lines of the section whose title starts with `prefix` (none when it is absent).
    pub fn lines(&self, prefix: &str) -> &[Line<'a>] {
        self.section(prefix).map_or(&[], |s| s.lines.as_slice())
    }

    /// The line cited exactly `cite`.
    pub fn line(&self, cite: &str) -> Option<&Line<'a>> {
        self.sections.iter().flat_map(|s| &s.lines).find(|l| l.cite == cite)
    }

    /// Every line whose citation starts with `prefix`, in order.
    pub fn cited(&self, prefix: &str) -> impl Iterator<Item = &Line<'a>> {
        self.sections.iter().flat_map(|s| &s.lines).filter(move |l| l.cite.starts_with(prefix))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_lines_fields_and_filing_links_are_read_back() {
        let text = "Intro\n## Pipeline\n- [pipeline] Pipeline · 3 deals · $3,000 in total\n(none)\n\
                    ## Company: Tesla, Inc. (TSLA, tesla)\n\
                    - [Tesla, Inc., 10-Q filed 2025-07-24: https://www.sec.gov/x.htm] acquisition · 5 days old · Bought\n";
        let c = Context::parse(text);
        assert_eq!(c.lines("Pipeline")[0].fields(), ["Pipeline", "3 deals", "$3,000 in total"]);
        let fact = &c.lines("Company")[0];
        assert_eq!(fact.filing_link().as_deref(), Some("[10-Q filed 2025-07-24](https://www.sec.gov/x.htm)"));
        assert_eq!(c.cited("pipeline").count(), 1);
        assert!(!fact.is_memory() && Line { cite: "org/icp@2", text: "" }.is_memory());
        let deal = Line { cite: "deal:d-1", text: "ACME · proposal · close 2026-12-01 · rep Kim" };
        assert_eq!(
            (deal.field("close"), deal.field("rep"), deal.field("next")),
            (Some("2026-12-01"), Some("Kim"), None)
        );
    }
}
