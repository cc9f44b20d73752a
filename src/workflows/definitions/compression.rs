//! memory-compression (internal; started by the scheduler): measure every worker's memory
//! against its budget, fold the over-budget scopes (fast model; originals archived), record
//! what was folded in the run's result.

use serde_json::json;

use crate::workflows::script::{ActivityKind, Command, History, run};

pub const STEPS: &[&str] = &["measure", "compress"];

pub fn next(h: &History) -> Command {
    let Some(measure) = h.last("measure") else {
        return run("measure", ActivityKind::MeasureMemory, json!({}));
    };
    let Some(compress) = h.last("compress") else {
        return run("compress", ActivityKind::CompressMemory, json!({"overBudget": measure["overBudget"]}));
    };
    Command::Complete(json!({"measured": measure, "folded": compress}))
}
