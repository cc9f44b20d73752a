//! Voice-call analysis behind a trait. The demo provider analyses the seeded call transcripts
//! (`seed/transcripts.json`, speakers by role only — no names, no contact data)
//! deterministically: sentiment from a small word lexicon, objections by category keywords,
//! the next step from the last line that proposes one. A real speech provider would implement
//! the same trait. Imports only `brain::demo::words`.

use serde::{Deserialize, Serialize};

const TRANSCRIPTS_JSON: &str = include_str!("../../seed/transcripts.json");

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CallAnalysis {
    pub transcript_id: String,
    /// `positive`, `neutral` or `negative`.
    pub sentiment: String,
    /// Lexicon score: positive minus negative words on the prospect's lines.
    pub sentiment_score: i32,
    /// Objection categories raised by the prospect: `price`, `budget`, `timing`, `security`, `competitor`.
    pub objections: Vec<String>,
    pub next_step: Option<String>,
}

/// Finds and analyses the call of a lead (by lead id, else by company slug).
pub trait VoiceAnalyzer: Send + Sync {
    fn provider(&self) -> &'static str;
    fn analyze(&self, lead_id: &str, company_slug: Option<&str>) -> Option<CallAnalysis>;
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Transcript {
    id: String,
    company: String,
    lead_id: String,
    /// `[speaker role, text]`.
    lines: Vec<(String, String)>,
}

/// The demo provider over the seeded transcripts.
pub struct DemoVoice {
    transcripts: Vec<Transcript>,
}

impl DemoVoice {
    pub fn seeded() -> Result<Self, serde_json::Error> {
        Ok(Self { transcripts: serde_json::from_str(TRANSCRIPTS_JSON)? })
    }
}

const POSITIVE: &[&str] = &["great", "love", "good", "approved", "yes", "pain", "priority", "expanding", "please"];
const NEGATIVE: &[&str] = &["slow", "behind", "higher", "expected", "not", "competitor", "no", "another"];
const OBJECTIONS: &[(&str, &[&str])] = &[
    ("price", &["price", "cost", "expensive", "higher"]),
    ("budget", &["budget"]),
    ("timing", &["schedule", "quarter", "spring", "later", "contract"]),
    ("security", &["security"]),
    ("competitor", &["competitor", "vendor"]),
];
const NEXT_STEP_WORDS: &[&str] = &["schedule", "send", "book", "follow", "demo", "proposal", "pilot"];

impl VoiceAnalyzer for DemoVoice {
    fn provider(&self) -> &'static str {
        "demo"
    }

    fn analyze(&self, lead_id: &str, company_slug: Option<&str>) -> Option<CallAnalysis> {
        let t = self
            .transcripts
            .iter()
            .find(|t| t.lead_id == lead_id)
            .or_else(|| company_slug.and_then(|s| self.transcripts.iter().find(|t| t.company == s)))?;
        Some(analyze(t))
    }
}

fn analyze(t: &Transcript) -> CallAnalysis {
    let prospect: Vec<&str> = t.lines.iter().filter(|(who, _)| who == "prospect").map(|(_, l)| l.as_str()).collect();
    let mut score = 0i32;
    let mut objections = Vec::new();
    for line in &prospect {
        let words = crate::brain::demo::words(line);
        let short: Vec<String> = line.split(|c: char| !c.is_alphanumeric()).map(str::to_lowercase).collect();
        let has = |w: &str| words.contains(w) || short.iter().any(|s| s == w);
        score += POSITIVE.iter().filter(|w| has(w)).count() as i32;
        score -= NEGATIVE.iter().filter(|w| has(w)).count() as i32;
        for (category, cues) in OBJECTIONS {
            if cues.iter().any(|c| has(c)) && !objections.iter().any(|o| o == category) {
                objections.push((*category).to_owned());
            }
        }
    }
    let sentiment = match score {
        s if s >= 2 => "positive",
        s if s <= -2 => "negative",
        _ => "neutral",
    };
    let next_step = t
        .lines
        .iter()
        .rev()
        .map(|(_, l)| l)
        .find(|l| NEXT_STEP_WORDS.iter().any(|w| l.to_lowercase().contains(w)))
        .cloned();
    CallAnalysis {
        transcript_id: t.id.clone(),
        sentiment: sentiment.into(),
        sentiment_score: score,
        objections,
        next_step,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_calls_are_analysed_deterministically() {
        let voice = DemoVoice::seeded().unwrap();
        let good = voice.analyze("lead-construction-partners", None).unwrap_or_else(|| panic!("seeded"));
        assert_eq!(good.sentiment, "positive");
        assert!(good.next_step.as_deref().is_some_and(|s| s.contains("pilot")));
        let hard = voice.analyze("unknown", Some("mgm-resorts-international")).unwrap_or_else(|| panic!("by slug"));
        assert_eq!(hard.sentiment, "negative");
        assert!(hard.objections.contains(&"price".to_owned()) && hard.objections.contains(&"competitor".to_owned()));
        assert_eq!(voice.analyze("unknown", Some("apple")), None);
        assert_eq!(voice.analyze("lead-csp", None), voice.analyze("lead-csp", None));
    }
}
