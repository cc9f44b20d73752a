//! The three inline SVG charts of `/status`, hand-written: pipeline value by stage and token
//! spend by day (columns), workflow outcomes by type (stacked rows). Each scales to its box
//! through its `viewBox` (readable on a phone), carries a `<title>` per bar with the exact
//! figure, and marks every bar `class="bar"` with a `data-key`. Every text is escaped. The
//! console's metrics page (`/app/metrics`) draws with the same functions, and with `rows` (one
//! labelled horizontal bar per item, for names too long to sit under a column).

use std::fmt::Write;

use super::format::{compact, escape};

const WIDTH: f64 = 320.0;
const COLUMN_HEIGHT: f64 = 150.0;
const PAD: f64 = 6.0;
const TOP: f64 = 14.0;
const BOTTOM: f64 = 22.0;

/// One column: a machine key, a label, its value and the exact figure for people.
pub struct Column {
    pub key: String,
    pub label: String,
    pub value: f64,
    pub exact: String,
}

fn open(id: &str, title: &str, height: f64) -> String {
    format!(
        "<svg id=\"{id}\" class=\"chart\" viewBox=\"0 0 {WIDTH} {height}\" role=\"img\" \
         aria-label=\"{t}\" xmlns=\"http://www.w3.org/2000/svg\"><title>{t}</title>",
        t = escape(title)
    )
}

/// A column chart; every column is labelled when there are at most eight, else the first and last.
pub fn columns(id: &str, title: &str, cols: &[Column]) -> String {
    let mut s = open(id, title, COLUMN_HEIGHT);
    let max = cols.iter().map(|c| c.value).fold(0.0_f64, f64::max);
    let plot = COLUMN_HEIGHT - TOP - BOTTOM;
    let slot = (WIDTH - 2.0 * PAD) / cols.len().max(1) as f64;
    let bar_width = (slot * 0.75).max(1.0);
    let label_all = cols.len() <= 8;
    let baseline = COLUMN_HEIGHT - BOTTOM;
    let _ = write!(s, "<line class=\"axis\" x1=\"{PAD}\" y1=\"{baseline}\" x2=\"{}\" y2=\"{baseline}\"/>", WIDTH - PAD);
    for (i, c) in cols.iter().enumerate() {
        let h = if max > 0.0 && c.value > 0.0 { (c.value / max * plot).max(1.0) } else { 0.0 };
        let x = PAD + slot * i as f64 + (slot - bar_width) / 2.0;
        let center = x + bar_width / 2.0;
        let _ = write!(
            s,
            "<rect class=\"bar\" data-key=\"{k}\" x=\"{x:.1}\" y=\"{y:.1}\" width=\"{bar_width:.1}\" height=\"{h:.1}\">\
             <title>{l}: {e}</title></rect>",
            k = escape(&c.key),
            y = baseline - h,
            l = escape(&c.label),
            e = escape(&c.exact),
        );
        if label_all {
            let _ = write!(
                s,
                "<text class=\"value\" text-anchor=\"middle\" x=\"{center:.1}\" y=\"{:.1}\">{}</text>\
                 <text class=\"label\" text-anchor=\"middle\" x=\"{center:.1}\" y=\"{:.1}\">{}</text>",
                baseline - h - 3.0,
                escape(&compact(c.value)),
                baseline + 12.0,
                escape(&c.label)
            );
        } else if i == 0 || i + 1 == cols.len() {
            let anchor = if i == 0 { "start" } else { "end" };
            let edge = if i == 0 { x } else { x + bar_width };
            let _ = write!(
                s,
                "<text class=\"label\" text-anchor=\"{anchor}\" x=\"{edge:.1}\" y=\"{:.1}\">{}</text>",
                baseline + 12.0,
                escape(&c.label)
            );
        }
    }
    s.push_str("</svg>");
    s
}

/// Outcomes of one workflow type.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outcomes {
    pub kind: String,
    pub completed: u64,
    pub failed: u64,
    pub cancelled: u64,
    /// Running or waiting.
    pub live: u64,
}

impl Outcomes {
    pub fn total(&self) -> u64 {
        self.completed + self.failed + self.cancelled + self.live
    }
}

const ROW: f64 = 22.0;
const LABEL_WIDTH: f64 = 118.0;
const COUNT_WIDTH: f64 = 34.0;

/// One stacked row per workflow type (completed, failed, cancelled, live), longest total = full width.
pub fn outcome_rows(id: &str, title: &str, rows: &[Outcomes]) -> String {
    let height = ROW * rows.len() as f64 + 24.0;
    let mut s = open(id, title, height);
    let max = rows.iter().map(Outcomes::total).max().unwrap_or(0).max(1) as f64;
    let span = WIDTH - LABEL_WIDTH - COUNT_WIDTH - PAD;
    for (i, r) in rows.iter().enumerate() {
        let y = ROW * i as f64 + 4.0;
        let _ = write!(
            s,
            "<g class=\"bar\" data-key=\"{k}\"><title>{k}: {} completed, {} failed, {} cancelled, {} running or \
             waiting</title><text class=\"label\" text-anchor=\"end\" x=\"{:.1}\" y=\"{:.1}\">{k}</text>",
            r.completed,
            r.failed,
            r.cancelled,
            r.live,
            LABEL_WIDTH - 4.0,
            y + 12.0,
            k = escape(&r.kind)
        );
        let mut x = LABEL_WIDTH;
        for (class, n) in [("ok", r.completed), ("fail", r.failed), ("cancel", r.cancelled), ("live", r.live)] {
            if n == 0 {
                continue;
            }
            let w = (n as f64 / max * span).max(1.0);
            let _ = write!(s, "<rect class=\"seg {class}\" x=\"{x:.1}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"16\"/>");
            x += w;
        }
        let _ = write!(
            s,
            "<text class=\"value\" text-anchor=\"start\" x=\"{:.1}\" y=\"{:.1}\">{}</text></g>",
            x + 3.0,
            y + 12.0,
            r.total()
        );
    }
    let legend_y = height - 6.0;
    let mut x = PAD;
    for (class, name) in [("ok", "completed"), ("fail", "failed"), ("cancel", "cancelled"), ("live", "live")] {
        let _ = write!(
            s,
            "<rect class=\"seg {class}\" x=\"{x:.1}\" y=\"{:.1}\" width=\"8\" height=\"8\"/>\
             <text class=\"legend\" text-anchor=\"start\" x=\"{:.1}\" y=\"{legend_y:.1}\">{name}</text>",
            legend_y - 7.5,
            x + 11.0
        );
        x += 72.0;
    }
    s.push_str("</svg>");
    s
}

/// One labelled horizontal bar per item, the largest value full width; each bar's `<title>` has
/// the exact figure, and its short figure follows the bar.
pub fn rows(id: &str, title: &str, items: &[Column]) -> String {
    let height = ROW * items.len() as f64 + 6.0;
    let mut s = open(id, title, height);
    let max = items.iter().map(|c| c.value).fold(0.0_f64, f64::max);
    let span = WIDTH - LABEL_WIDTH - COUNT_WIDTH - PAD;
    for (i, c) in items.iter().enumerate() {
        let y = ROW * i as f64 + 4.0;
        let w = if max > 0.0 && c.value > 0.0 { (c.value / max * span).max(1.0) } else { 0.0 };
        let _ = write!(
            s,
            "<g data-key=\"{k}\"><title>{l}: {e}</title>\
             <text class=\"label\" text-anchor=\"end\" x=\"{:.1}\" y=\"{:.1}\">{short}</text>\
             <rect class=\"bar\" x=\"{LABEL_WIDTH:.1}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"16\"/>\
             <text class=\"value\" text-anchor=\"start\" x=\"{:.1}\" y=\"{:.1}\">{v}</text></g>",
            LABEL_WIDTH - 4.0,
            y + 12.0,
            LABEL_WIDTH + w + 3.0,
            y + 12.0,
            k = escape(&c.key),
            l = escape(&c.label),
            e = escape(&c.exact),
            v = escape(&compact(c.value)),
            short = escape(&shortened(&c.label)),
        );
    }
    s.push_str("</svg>");
    s
}

/// A row's label cut to what fits left of its bar (the whole label is in the row's title).
fn shortened(label: &str) -> String {
    const FITS: usize = 22;
    if label.chars().count() <= FITS {
        return label.to_owned();
    }
    let cut: String = label.chars().take(FITS - 1).collect();
    format!("{}…", cut.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn col(key: &str, value: f64) -> Column {
        Column { key: key.into(), label: format!("<{key}>"), value, exact: format!("${value}") }
    }

    #[test]
    fn one_escaped_bar_per_column_scaled_to_the_largest() {
        let svg = columns("c", "Value & more", &[col("a", 50.0), col("b", 100.0), col("z", 0.0)]);
        assert_eq!(svg.matches("class=\"bar\"").count(), 3);
        assert!(svg.contains("aria-label=\"Value &amp; more\"") && svg.contains("&lt;a&gt;"));
        assert!(!svg.contains("<a>"), "labels are escaped");
        assert!(svg.contains(&format!("height=\"{:.1}\"", COLUMN_HEIGHT - TOP - BOTTOM)), "the largest fills the plot");
        assert!(svg.contains("data-key=\"z\"") && svg.contains("height=\"0.0\""), "a zero column stays, flat");
    }

    #[test]
    fn many_columns_label_only_the_ends() {
        let cols: Vec<Column> = (0..30).map(|i| col(&format!("d{i}"), f64::from(i))).collect();
        let svg = columns("days", "Days", &cols);
        assert_eq!(svg.matches("class=\"bar\"").count(), 30);
        assert_eq!(svg.matches("class=\"label\"").count(), 2);
    }

    #[test]
    fn outcome_rows_stack_their_segments() {
        let rows = vec![
            Outcomes { kind: "lead-qualification".into(), completed: 8, failed: 2, cancelled: 0, live: 1 },
            Outcomes { kind: "coordinator".into(), ..Outcomes::default() },
        ];
        let svg = outcome_rows("o", "Outcomes", &rows);
        assert_eq!(svg.matches("class=\"bar\"").count(), 2);
        assert_eq!(svg.matches("class=\"seg ok\"").count(), 2, "one segment and one legend swatch");
        assert!(svg.contains("8 completed, 2 failed, 0 cancelled, 1 running or waiting"));
    }

    #[test]
    fn rows_scale_to_the_largest_and_escape_their_labels() {
        let svg = rows("r", "By worker", &[col("a", 50.0), col("b", 100.0), col("z", 0.0)]);
        assert_eq!(svg.matches("class=\"bar\"").count(), 3);
        let span = WIDTH - LABEL_WIDTH - COUNT_WIDTH - PAD;
        assert!(svg.contains(&format!("width=\"{span:.1}\"")), "the largest fills the row");
        assert!(svg.contains("&lt;a&gt;: $50") && !svg.contains("<a>"), "labels and figures are escaped");
        let long = Column { label: "Construction Partners, Inc. & Co".into(), ..col("c", 1.0) };
        let svg = rows("r", "By account", &[long]);
        assert!(svg.contains(">Construction Partners…</text>"), "shortened beside the bar: {svg}");
        assert!(svg.contains("<title>Construction Partners, Inc. &amp; Co:"), "whole in the title: {svg}");
    }
}
