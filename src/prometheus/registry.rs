//! The process's series and their exposition text. Every series is a metric name with a sorted
//! list of labels; counters add, gauges are set, histograms count observations into fixed
//! buckets (aggregated as they arrive, so memory grows with the number of series only, never
//! with traffic). One lock guards it all: an update is a map lookup and an addition.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Mutex;

/// A series' labels, in the order the caller names them.
pub type Labels = Vec<(&'static str, String)>;

/// What a metric is, for its `# TYPE` line.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    Counter,
    Gauge,
    /// Observations counted into these upper bounds (seconds), ascending.
    Histogram(&'static [f64]),
}

/// A metric as the exposition describes it.
#[derive(Debug, Clone, Copy)]
pub struct Family {
    pub name: &'static str,
    pub kind: Kind,
    pub help: &'static str,
}

#[derive(Debug, Clone, PartialEq)]
enum Value {
    Counter(u64),
    Gauge(f64),
    /// Per-bucket counts (not cumulative; one more than the bounds, for `+Inf`), sum and count.
    Histogram {
        buckets: Vec<u64>,
        sum: f64,
        count: u64,
    },
}

/// Every series of every family.
pub struct Registry {
    families: &'static [Family],
    series: Mutex<BTreeMap<(&'static str, Labels), Value>>,
}

impl Registry {
    pub const fn new(families: &'static [Family]) -> Self {
        Self { families, series: Mutex::new(BTreeMap::new()) }
    }

    fn update(
        &self,
        name: &'static str,
        labels: Labels,
        apply: impl FnOnce(&mut Value),
        empty: impl FnOnce() -> Value,
    ) {
        // A panic while holding the lock leaves whole numbers behind: keep counting.
        let mut series = self.series.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        apply(series.entry((name, labels)).or_insert_with(empty));
    }

    /// Adds `n` to a counter.
    pub fn add(&self, name: &'static str, labels: Labels, n: u64) {
        self.update(
            name,
            labels,
            |v| {
                if let Value::Counter(c) = v {
                    *c += n
                }
            },
            || Value::Counter(0),
        );
    }

    /// Sets a gauge.
    pub fn set(&self, name: &'static str, labels: Labels, value: f64) {
        self.update(name, labels, |v| *v = Value::Gauge(value), || Value::Gauge(value));
    }

    /// Counts one observation into a histogram family's buckets.
    pub fn observe(&self, name: &'static str, labels: Labels, value: f64) {
        let bounds = self.bounds(name);
        let slot = bounds.iter().position(|b| value <= *b).unwrap_or(bounds.len());
        let empty = || Value::Histogram { buckets: vec![0; bounds.len() + 1], sum: 0.0, count: 0 };
        self.update(
            name,
            labels,
            |v| {
                if let Value::Histogram { buckets, sum, count } = v
                    && let Some(b) = buckets.get_mut(slot)
                {
                    *b += 1;
                    *sum += value;
                    *count += 1;
                }
            },
            empty,
        );
    }

    fn bounds(&self, name: &str) -> &'static [f64] {
        match self.families.iter().find(|f| f.name == name).map(|f| f.kind) {
            Some(Kind::Histogram(bounds)) => bounds,
            _ => &[],
        }
    }

    /// The text exposition format (version 0.0.4): each family's help and type, then its series.
    pub fn render(&self) -> String {
        let series = self.series.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut out = String::new();
        for family in self.families {
            let kind = match family.kind {
                Kind::Counter => "counter",
                Kind::Gauge => "gauge",
                Kind::Histogram(_) => "histogram",
            };
            let _ = writeln!(out, "# HELP {} {}\n# TYPE {} {kind}", family.name, family.help, family.name);
            for ((_, labels), value) in
                series.range((family.name, Vec::new())..).take_while(|((n, _), _)| *n == family.name)
            {
                match value {
                    Value::Counter(c) => sample(&mut out, family.name, labels, None, &c.to_string()),
                    Value::Gauge(g) => sample(&mut out, family.name, labels, None, &gauge_text(*g)),
                    Value::Histogram { buckets, sum, count } => {
                        let bucket = format!("{}_bucket", family.name);
                        let mut cumulative = 0;
                        for (i, n) in buckets.iter().enumerate() {
                            cumulative += n;
                            let le = self.bounds(family.name).get(i).map_or_else(|| "+Inf".to_owned(), f64::to_string);
                            sample(&mut out, &bucket, labels, Some(&le), &cumulative.to_string());
                        }
                        sample(&mut out, &format!("{}_sum", family.name), labels, None, &sum.to_string());
                        sample(&mut out, &format!("{}_count", family.name), labels, None, &count.to_string());
                    }
                }
            }
        }
        out
    }
}

/// A gauge's value as the format writes it (`+Inf` for an unbounded one).
fn gauge_text(g: f64) -> String {
    if g == f64::INFINITY { "+Inf".to_owned() } else { g.to_string() }
}

/// One sample line; label values escaped as the format requires.
fn sample(out: &mut String, name: &str, labels: &Labels, le: Option<&str>, value: &str) {
    out.push_str(name);
    let pairs = labels.iter().map(|(k, v)| (*k, v.as_str())).chain(le.map(|le| ("le", le)));
    for (i, (key, raw)) in pairs.enumerate() {
        out.push(if i == 0 { '{' } else { ',' });
        let escaped = raw.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n");
        let _ = write!(out, "{key}=\"{escaped}\"");
    }
    if !labels.is_empty() || le.is_some() {
        out.push('}');
    }
    let _ = writeln!(out, " {value}");
}

#[cfg(test)]
mod tests {
    use super::*;

    static FAMILIES: [Family; 3] = [
        Family { name: "t_requests_total", kind: Kind::Counter, help: "Requests" },
        Family { name: "t_size_bytes", kind: Kind::Gauge, help: "Size" },
        Family { name: "t_seconds", kind: Kind::Histogram(&[0.1, 1.0]), help: "Latency" },
    ];

    #[test]
    fn counters_gauges_and_histograms_render_in_the_text_format() {
        let registry = Registry::new(&FAMILIES);
        registry.add("t_requests_total", vec![("route", "/a".into())], 2);
        registry.add("t_requests_total", vec![("route", "/a".into())], 1);
        registry.add("t_requests_total", vec![("route", "say \"hi\"\\\n".into())], 1);
        registry.set("t_size_bytes", Vec::new(), 1.5);
        for secs in [0.05, 0.5, 7.0] {
            registry.observe("t_seconds", vec![("route", "/a".into())], secs);
        }
        let text = registry.render();
        for line in [
            "# HELP t_requests_total Requests",
            "# TYPE t_requests_total counter",
            "t_requests_total{route=\"/a\"} 3",
            "t_requests_total{route=\"say \\\"hi\\\"\\\\\\n\"} 1",
            "# TYPE t_size_bytes gauge",
            "t_size_bytes 1.5",
            "# TYPE t_seconds histogram",
            "t_seconds_bucket{route=\"/a\",le=\"0.1\"} 1",
            "t_seconds_bucket{route=\"/a\",le=\"1\"} 2",
            "t_seconds_bucket{route=\"/a\",le=\"+Inf\"} 3",
            "t_seconds_sum{route=\"/a\"} 7.55",
            "t_seconds_count{route=\"/a\"} 3",
        ] {
            assert!(text.lines().any(|l| l == line), "{line:?} missing from\n{text}");
        }
    }
}
