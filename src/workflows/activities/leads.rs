//! Lead activities: the call analysis (voice provider), the score and the route. The score is
//! deterministic arithmetic over receipted signals and the call; the fast model only writes the
//! one-line rationale.

use serde_json::{Value, json};

use super::{ActivityError, Compute, StepCall, text};
use crate::brain::TaskType;

pub fn analyze_call(a: &Compute, input: &Value) -> Result<Value, ActivityError> {
    let slug = input.get("slug").and_then(Value::as_str);
    Ok(match a.voice.analyze(text(input, "leadId")?, slug) {
        Some(analysis) => json!({"found": true, "provider": a.voice.provider(), "analysis": analysis}),
        None => json!({"found": false, "provider": a.voice.provider()}),
    })
}

/// 0–100: a base of 20; +20 when the company is in the data set; up to +30 for its best
/// signal (kind weight × recency); +5 per further signal; the call's sentiment ±15 and −5 per
/// objection.
pub fn points(research: &Value, call: &Value) -> (i64, Vec<String>) {
    let mut score = 20i64;
    let mut reasons = Vec::new();
    if research["found"].as_bool() == Some(true) {
        score += 20;
        reasons.push("the company is in the receipted data set".to_owned());
    }
    let signals = research["signals"].as_array().cloned().unwrap_or_default();
    if let Some(best) = signals.first() {
        let s = best["score"].as_f64().unwrap_or(0.0);
        score += (s * 30.0).round() as i64;
        reasons.push(format!(
            "best signal: {} ({} filed {})",
            best["kind"].as_str().unwrap_or_default(),
            best["form"].as_str().unwrap_or_default(),
            best["filed"].as_str().unwrap_or_default()
        ));
    }
    score += 5 * signals.len().saturating_sub(1) as i64;
    let analysis = &call["analysis"];
    let sentiment = analysis["sentiment"].as_str().unwrap_or_default();
    let delta = match sentiment {
        "positive" => 15,
        "negative" => -15,
        _ => 0,
    };
    if delta != 0 {
        score += delta;
        reasons.push(format!("the call was {sentiment}"));
    }
    let objections = analysis["objections"].as_array().map_or(0, Vec::len) as i64;
    if objections > 0 {
        score -= 5 * objections;
        reasons.push(format!("{objections} objection(s) raised on the call"));
    }
    (score.clamp(0, 100), reasons)
}

fn grade(score: i64) -> &'static str {
    match score {
        75.. => "A",
        55..=74 => "B",
        35..=54 => "C",
        _ => "D",
    }
}

pub async fn score(a: &Compute, call: StepCall<'_>, input: &Value) -> Result<Value, ActivityError> {
    let (score, reasons) = points(&input["research"], &input["call"]);
    let mut system = String::from("You explain a lead score in one sentence from these facts:\n");
    for r in &reasons {
        system.push_str(&format!("- {r}\n"));
    }
    let question = format!(
        "Why does the lead {} score {score}? Explain the company signal and the call.",
        text(input, "company")?
    );
    let (rationale, tokens) = a.ask(call, TaskType::Fast, system, question).await?;
    Ok(json!({"score": score, "grade": grade(score), "reasons": reasons, "rationale": rationale, "tokens": tokens}))
}

/// A → the deal desk (qualified), B → the account researcher (qualified), C → SDR nurture,
/// D → disqualified.
pub fn route(input: &Value) -> Result<Value, ActivityError> {
    let (route, qualified) = match input["score"]["grade"].as_str() {
        Some("A") => ("deal-desk", true),
        Some("B") => ("account-researcher", true),
        Some("C") => ("sdr-nurture", false),
        _ => ("disqualified", false),
    };
    Ok(json!({"route": route, "qualified": qualified, "leadId": text(input, "leadId")?}))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_reward_receipted_signals_and_good_calls() {
        let research = json!({"found": true, "signals": [{"score": 1.0, "kind": "expansion", "form": "8-K", "filed": "2025-01-01"}, {"score": 0.5}]});
        let good = json!({"analysis": {"sentiment": "positive", "objections": []}});
        let bad = json!({"analysis": {"sentiment": "negative", "objections": ["price", "competitor"]}});
        assert_eq!(points(&research, &good).0, 90);
        assert_eq!(points(&research, &bad).0, 50);
        assert_eq!(points(&json!({"found": false}), &json!({"found": false})).0, 20);
        let routed = |grade: &str| route(&json!({"score": {"grade": grade}, "leadId": "l"})).expect("routes");
        assert_eq!(routed(super::grade(80))["route"], "deal-desk");
        assert_eq!(routed(super::grade(10))["qualified"], false);
    }
}
