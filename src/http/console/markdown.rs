//! The Brain's answers as HTML: a small Markdown subset rendered through maud, so every piece
//! of text is escaped and no HTML in an answer ever reaches the page. Blocks: paragraphs (a
//! single line break kept), `#` headings (shown two levels down, under the page's own),
//! `-`/`*`/`+` and `1.` lists, `>` quotes, fenced code. Inline: `code`, `**strong**`,
//! `*emphasis*`/`_emphasis_`, `[text](url)` and bare URLs — a link only when its address is
//! `http` or `https` (anything else, `javascript:` included, stays text).

use maud::{Markup, html};

/// Nesting deeper than this (`**` inside `*` inside …) is shown as written.
const MAX_DEPTH: usize = 6;

#[derive(Debug, PartialEq)]
enum Block<'a> {
    Heading(u8, &'a str),
    Paragraph(Vec<&'a str>),
    List { ordered: bool, items: Vec<String> },
    Quote(Vec<&'a str>),
    Code(Vec<&'a str>),
}

#[derive(Debug, PartialEq)]
enum Span<'a> {
    Text(&'a str),
    Code(&'a str),
    Strong(Vec<Span<'a>>),
    Emphasis(Vec<Span<'a>>),
    Link { text: Vec<Span<'a>>, href: &'a str },
}

/// `text` as safe HTML.
pub fn render(text: &str) -> Markup {
    html! {
        @for block in blocks(text) {
            @match block {
                Block::Heading(level, line) => (heading(level, &spans(line, 0))),
                Block::Paragraph(lines) => p { (lines_with_breaks(&lines)) },
                Block::List { ordered: true, items } => ol { @for item in &items { li { (inline(&spans(item, 0))) } } },
                Block::List { ordered: false, items } => ul { @for item in &items { li { (inline(&spans(item, 0))) } } },
                Block::Quote(lines) => blockquote { p { (lines_with_breaks(&lines)) } },
                Block::Code(lines) => pre { code { (lines.join("\n")) } },
            }
        }
    }
}

fn heading(level: u8, content: &[Span]) -> Markup {
    let content = inline(content);
    match level {
        1 => html! { h3 { (content) } },
        2 => html! { h4 { (content) } },
        3 => html! { h5 { (content) } },
        _ => html! { h6 { (content) } },
    }
}

fn lines_with_breaks(lines: &[&str]) -> Markup {
    html! {
        @for (i, line) in lines.iter().enumerate() {
            @if i > 0 { br; }
            (inline(&spans(line, 0)))
        }
    }
}

fn inline(spans: &[Span]) -> Markup {
    html! {
        @for span in spans {
            @match span {
                Span::Text(text) => (text),
                Span::Code(code) => code { (code) },
                Span::Strong(inner) => strong { (inline(inner)) },
                Span::Emphasis(inner) => em { (inline(inner)) },
                Span::Link { text, href } => a href=(href) rel="noopener noreferrer nofollow" { (inline(text)) },
            }
        }
    }
}

/// A list item's marker and text: `- x`, `* x`, `+ x` (unordered) or `12. x` (ordered).
fn list_item(line: &str) -> Option<(bool, &str)> {
    let line = line.trim_start();
    for marker in ["- ", "* ", "+ "] {
        if let Some(rest) = line.strip_prefix(marker) {
            return Some((false, rest));
        }
    }
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    let rest = line[digits..].strip_prefix(". ")?;
    (digits > 0 && digits < 10).then_some((true, rest))
}

fn heading_line(line: &str) -> Option<(u8, &str)> {
    let hashes = line.bytes().take_while(|b| *b == b'#').count();
    let rest = line[hashes..].strip_prefix(' ')?;
    (1..=6).contains(&hashes).then(|| (hashes as u8, rest.trim()))
}

fn blocks(text: &str) -> Vec<Block<'_>> {
    let mut out = Vec::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        if trimmed.starts_with("```") {
            let code: Vec<&str> = lines.by_ref().take_while(|l| !l.trim().starts_with("```")).collect();
            out.push(Block::Code(code));
        } else if let Some((level, rest)) = heading_line(trimmed) {
            out.push(Block::Heading(level, rest));
        } else if let Some((ordered, first)) = list_item(line) {
            let mut items = vec![first.trim().to_owned()];
            while let Some(next) = lines.peek() {
                match list_item(next) {
                    Some((o, item)) if o == ordered => items.push(item.trim().to_owned()),
                    None if next.starts_with("  ") && !next.trim().is_empty() => {
                        if let Some(last) = items.last_mut() {
                            last.push(' ');
                            last.push_str(next.trim());
                        }
                    }
                    _ => break,
                }
                lines.next();
            }
            out.push(Block::List { ordered, items });
        } else if let Some(first) = trimmed.strip_prefix('>') {
            let mut quoted = vec![first.trim()];
            while let Some(rest) = lines.peek().and_then(|l| l.trim().strip_prefix('>')) {
                quoted.push(rest.trim());
                lines.next();
            }
            out.push(Block::Quote(quoted));
        } else {
            let mut paragraph = vec![trimmed];
            while let Some(next) = lines.peek() {
                let t = next.trim();
                let starts_block = t.is_empty()
                    || t.starts_with("```")
                    || t.starts_with('>')
                    || heading_line(t).is_some()
                    || list_item(next).is_some();
                if starts_block {
                    break;
                }
                paragraph.push(t);
                lines.next();
            }
            out.push(Block::Paragraph(paragraph));
        }
    }
    out
}

/// An address a link may have: `http` or `https`, nothing that could break out of it.
fn safe_href(href: &str) -> bool {
    let lower = href.to_ascii_lowercase();
    (lower.starts_with("http://") || lower.starts_with("https://"))
        && href.len() > "http://".len()
        && !href.chars().any(|c| c.is_whitespace() || c.is_control() || matches!(c, '<' | '>' | '"' | '\''))
}

/// A bare URL at the start of `rest` (after a non-word character): its length, trailing
/// punctuation left out.
fn bare_url(rest: &str) -> Option<usize> {
    let lower = rest.get(..8).unwrap_or(rest).to_ascii_lowercase();
    if !(lower.starts_with("http://") || lower.starts_with("https://")) {
        return None;
    }
    let end =
        rest.find(|c: char| c.is_whitespace() || matches!(c, '<' | '>' | '"' | '\'' | ')' | ']')).unwrap_or(rest.len());
    let url = rest[..end].trim_end_matches(['.', ',', ';', ':', '!', '?']);
    safe_href(url).then_some(url.len())
}

/// Where the delimiter `close` ends a span opened just before `from`: the inside must not be
/// empty or start or end with a space.
fn closing(text: &str, from: usize, close: &str) -> Option<usize> {
    let end = from + text.get(from..)?.find(close)?;
    let inner = &text[from..end];
    let padded = inner.starts_with(char::is_whitespace) || inner.ends_with(char::is_whitespace);
    (!inner.is_empty() && !padded).then_some(end)
}

fn spans(text: &str, depth: usize) -> Vec<Span<'_>> {
    if depth > MAX_DEPTH {
        return vec![Span::Text(text)];
    }
    let mut out = Vec::new();
    let (mut plain, mut i) = (0, 0);
    while i < text.len() {
        let rest = &text[i..];
        let word_before = text[..i].chars().next_back().is_some_and(char::is_alphanumeric);
        let found = if rest.starts_with('`') {
            closing(text, i + 1, "`").map(|end| (Span::Code(&text[i + 1..end]), end + 1))
        } else if rest.starts_with("**") {
            closing(text, i + 2, "**").map(|end| (Span::Strong(spans(&text[i + 2..end], depth + 1)), end + 2))
        } else if (rest.starts_with('*') || rest.starts_with('_')) && !word_before {
            let mark = &rest[..1];
            closing(text, i + 1, mark)
                .filter(|end| !text[end + 1..].starts_with(char::is_alphanumeric))
                .map(|end| (Span::Emphasis(spans(&text[i + 1..end], depth + 1)), end + 1))
        } else if rest.starts_with('[') {
            link(text, i, depth)
        } else if !word_before {
            bare_url(rest).map(|len| {
                let href = &text[i..i + len];
                (Span::Link { text: vec![Span::Text(href)], href }, i + len)
            })
        } else {
            None
        };
        match found {
            Some((span, next)) => {
                if plain < i {
                    out.push(Span::Text(&text[plain..i]));
                }
                out.push(span);
                (plain, i) = (next, next);
            }
            None => i += rest.chars().next().map_or(1, char::len_utf8),
        }
    }
    if plain < text.len() {
        out.push(Span::Text(&text[plain..]));
    }
    out
}

/// Where the `)` that closes a link's address is: parentheses inside it must balance
/// (`https://en.wikipedia.org/wiki/Apple_(company)`).
fn closing_paren(rest: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in rest.char_indices() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => return Some(i),
            ')' => depth -= 1,
            c if c.is_whitespace() => return None,
            _ => {}
        }
    }
    None
}

/// `[label](href)` starting at `start`: a link when `href` is safe, else the label alone.
fn link(text: &str, start: usize, depth: usize) -> Option<(Span<'_>, usize)> {
    let label_end = start + text[start..].find("](")?;
    let href_start = label_end + 2;
    let href_end = href_start + closing_paren(&text[href_start..])?;
    let (label, href) = (&text[start + 1..label_end], &text[href_start..href_end]);
    if label.is_empty() || label.contains('[') {
        return None;
    }
    let span = if safe_href(href) { Span::Link { text: spans(label, depth + 1), href } } else { Span::Text(label) };
    Some((span, href_end + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn html_of(text: &str) -> String {
        render(text).into_string()
    }

    #[test]
    fn raw_html_is_escaped_never_passed() {
        let out = html_of("<script>alert(1)</script> and <img src=x onerror=alert(1)>");
        assert!(!out.contains("<script") && !out.contains("<img"), "{out}");
        assert!(out.contains("&lt;script&gt;"), "{out}");
    }

    #[test]
    fn only_http_and_https_links_become_links() {
        let out = html_of("[filing](https://www.sec.gov/a.htm) [bad](javascript:alert(1)) [data](data:text/html,x)");
        assert!(
            out.contains(r#"<a href="https://www.sec.gov/a.htm" rel="noopener noreferrer nofollow">filing</a>"#),
            "{out}"
        );
        assert!(!out.contains("javascript:alert(1)\"") && !out.contains("href=\"javascript"), "{out}");
        assert!(!out.contains("href=\"data:"), "{out}");
        let bare = html_of("See https://www.sec.gov/x.htm. Or JavaScript:void(0)");
        assert!(bare.contains(r#"href="https://www.sec.gov/x.htm""#) && !bare.contains("href=\"JavaScript"), "{bare}");
        let wiki = html_of("[Apple](https://en.wikipedia.org/wiki/Apple_(company)) and [x](javascript:alert(1)).");
        assert_eq!(
            wiki,
            r#"<p><a href="https://en.wikipedia.org/wiki/Apple_(company)" rel="noopener noreferrer nofollow">Apple</a> and x.</p>"#
        );
        let quoted = html_of("[x](https://a.example/\"onmouseover=alert(1))");
        assert!(!quoted.contains("onmouseover=alert(1)\""), "{quoted}");
    }

    #[test]
    fn blocks_and_inline_marks_render() {
        let out = html_of(
            "# Pipeline\n\n**$1.2M** open in *three* deals:\n- Acme `d-1`\n- Beta\n\n1. call\n2. write\n\n> quoted\n\n```\n<b>code</b>\n```",
        );
        for part in [
            "<h3>Pipeline</h3>",
            "<strong>$1.2M</strong>",
            "<em>three</em>",
            "<ul><li>Acme <code>d-1</code></li><li>Beta</li></ul>",
            "<ol><li>call</li><li>write</li></ol>",
            "<blockquote><p>quoted</p></blockquote>",
            "<pre><code>&lt;b&gt;code&lt;/b&gt;</code></pre>",
        ] {
            assert!(out.contains(part), "{part} in {out}");
        }
        assert!(html_of("line one\nline two").contains("line one<br>line two"));
        assert_eq!(html_of("snake_case_name and 2*3*4"), "<p>snake_case_name and 2*3*4</p>");
    }

    #[test]
    fn deep_or_unbalanced_marks_do_not_break_rendering() {
        let deep = "*_".repeat(400) + "x" + &"_*".repeat(400);
        assert!(html_of(&deep).starts_with("<p>"));
        assert_eq!(html_of("**open and `tick"), "<p>**open and `tick</p>");
        assert_eq!(
            html_of("[no close](https://a.example"),
            "<p>[no close](<a href=\"https://a.example\" rel=\"noopener noreferrer nofollow\">https://a.example</a></p>"
        );
    }
}
