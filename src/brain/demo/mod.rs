//! The built-in offline demo model: no network, deterministic, milliseconds, and always says
//! that it is the demo model. A Brain question (a context that starts with
//! `context::PREAMBLE`) is answered by intent (`intents`): the answer is written from the
//! context's sections (`read`) by the intent's writer (`answers`), every fact with its
//! citation. Any other prompt (a workflow's draft or plan) gets the context lines that share
//! the most words with it. Token use is counted with `estimate_tokens`.

mod answers;
mod intents;
mod read;

use std::collections::HashSet;

use futures_util::future::BoxFuture;

pub use answers::CANNOT_GROUND;

use super::model::{LanguageModel, ModelError, ModelReply, ModelRequest, TaskType, estimate_tokens};
use crate::domain::clip;

pub const DEMO_MODEL: &str = "gtms-demo";
/// Every demo answer starts with this, so nobody mistakes it for a real model.
pub const DEMO_NOTICE: &str = "[demo model] This answer comes from gtms's offline demo model (no language model is configured); it only restates the workspace it was given.";
const MAX_LINES: usize = 6;

pub struct DemoModel;

impl LanguageModel for DemoModel {
    fn provider(&self) -> &'static str {
        "demo"
    }

    fn complete<'a>(&'a self, request: &'a ModelRequest) -> BoxFuture<'a, Result<ModelReply, ModelError>> {
        let text = match request.task {
            TaskType::Fast => summarize(request),
            TaskType::Research | TaskType::Content => answer(request),
        };
        let input =
            estimate_tokens(&request.system) + request.turns.iter().map(|t| estimate_tokens(&t.text)).sum::<u64>();
        let reply =
            ModelReply { output_tokens: estimate_tokens(&text), text, model: DEMO_MODEL.into(), input_tokens: input };
        Box::pin(std::future::ready(Ok(reply)))
    }
}

pub fn words(text: &str) -> HashSet<String> {
    crate::domain::search_words(text)
}

fn answer(request: &ModelRequest) -> String {
    let question = request.turns.last().map(|t| t.text.as_str()).unwrap_or("");
    if request.system.starts_with(super::context::PREAMBLE) {
        let context = read::Context::parse(&request.system);
        let intent = intents::classify(question, &context);
        return format!("{DEMO_NOTICE}\n\n{}", answers::write(&intent, question, &context));
    }
    let asked = words(question);
    let mut scored: Vec<(usize, usize, &str)> = request
        .system
        .lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with("- "))
        .map(|(i, l)| (words(l).intersection(&asked).count(), i, l))
        .filter(|(score, _, _)| *score > 0)
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    if scored.is_empty() {
        return format!(
            "{DEMO_NOTICE}\nNothing in the workspace memory or the company data I was given matches \"{}\".",
            clip(question, 200)
        );
    }
    let mut out = format!("{DEMO_NOTICE}\nWhat the workspace knows about that:");
    for (_, _, line) in scored.into_iter().take(MAX_LINES) {
        out.push('\n');
        out.push_str(line);
    }
    out
}

/// One bullet per `key: value` line of the user's text, each value cut to 160 characters.
fn summarize(request: &ModelRequest) -> String {
    let text = request.turns.last().map(|t| t.text.as_str()).unwrap_or("");
    let bullets: Vec<String> =
        text.lines().filter(|l| !l.trim().is_empty()).map(|l| format!("- {}", clip(l.trim(), 160))).collect();
    format!("Summary by the demo model of {} entries:\n{}", bullets.len(), bullets.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brain::model::{Speaker, Turn};

    fn request(task: TaskType, system: &str, question: &str) -> ModelRequest {
        ModelRequest {
            task,
            model: DEMO_MODEL.into(),
            system: system.into(),
            turns: vec![Turn { speaker: Speaker::User, text: question.into() }],
            max_output_tokens: 512,
        }
    }

    async fn run(r: &ModelRequest) -> ModelReply {
        DemoModel.complete(r).await.unwrap()
    }

    #[tokio::test]
    async fn the_demo_model_answers_from_matching_context_lines_and_says_so() {
        let system = "Context:\n- [org/icp@2] Our ideal customer is a bank\n- [org/tone@1] Be brief\n";
        let reply = run(&request(TaskType::Research, system, "Who is our ideal customer?")).await;
        assert!(reply.text.starts_with(DEMO_NOTICE));
        assert!(reply.text.contains("[org/icp@2]") && !reply.text.contains("tone"), "{}", reply.text);
        assert_eq!(reply, run(&request(TaskType::Research, system, "Who is our ideal customer?")).await);
        assert!(reply.input_tokens > 0 && reply.output_tokens > 0);
        let none = run(&request(TaskType::Research, system, "weather tomorrow?")).await;
        assert!(none.text.contains("Nothing in the workspace memory"));
    }

    #[tokio::test]
    async fn a_brain_question_is_answered_by_intent_with_a_citation_per_fact_or_refused_in_one_sentence() {
        let system = format!(
            "{}\n## Organisation memory\n- [org/discounts@2] discounts: Cap discounts at 15%\n## Pipeline\n\
             - [pipeline] Pipeline · 3 deals · $3,000 in total · $1,200 open · $720 weighted · 1 won · 1 lost · win \
             rate 50.0%\n- [pipeline:proposal] Stage Proposal · 1 deals · $1,200\n",
            crate::brain::context::PREAMBLE
        );
        let ask = |q: &str| request(TaskType::Research, &system, q);
        let pipeline = run(&ask("What is the pipeline status?")).await.text;
        assert!(pipeline.starts_with(DEMO_NOTICE), "{pipeline}");
        assert!(
            pipeline
                .contains("3 deals worth $3,000 — $1,200 open, $720 weighted by each deal's probability [pipeline]")
        );
        assert!(pipeline.contains("- Proposal: 1 deals, $1,200 [pipeline:proposal]"), "{pipeline}");
        let decision = run(&ask("What did we decide about discounts?")).await.text;
        assert!(decision.contains("Cap discounts at 15% [org/discounts@2]"), "{decision}");
        let refused = run(&ask("What's the weather in Paris?")).await.text;
        assert!(refused.contains(CANNOT_GROUND) && refused.matches("\n- \"").count() == 2, "{refused}");
        assert_eq!(refused, run(&ask("What's the weather in Paris?")).await.text, "deterministic");
    }

    #[tokio::test]
    async fn the_demo_summary_keeps_one_bullet_per_entry() {
        let reply = run(&request(TaskType::Fast, "", &format!("a: one\nb: {}", "x".repeat(500)))).await;
        assert!(reply.text.contains("2 entries") && reply.text.contains("- a: one") && reply.text.len() < 400);
    }
}
