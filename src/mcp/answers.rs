//! Answers kept for tools whose answer depends only on their arguments and the embedded company
//! data (`McpTool::CACHEABLE`: `company_get`), so a repeated call is answered with the bytes
//! made the first time instead of cloning, serialising and escaping a card again (issue 27,
//! docs/mcp.md "One JSON answer per tool call"). The embedded data never changes while the
//! process runs, so an answer never goes stale; the number kept is bounded.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

/// How many answers are kept: every card's answer fits (699 cards today; Apple's answer is
/// about 22 kB), and memory stays bounded whatever callers ask.
pub const MAX_ANSWERS: usize = 1024;

/// Serialised `CallToolResult`s by tool and arguments.
#[derive(Default)]
pub struct Answers(Mutex<HashMap<(&'static str, String), Arc<str>>>);

impl Answers {
    fn lock(&self) -> MutexGuard<'_, HashMap<(&'static str, String), Arc<str>>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub fn get(&self, tool: &'static str, arguments: &str) -> Option<Arc<str>> {
        self.lock().get(&(tool, arguments.to_owned())).cloned()
    }

    /// Keeps `answer`; when `MAX_ANSWERS` are kept already, one of them makes room.
    pub fn keep(&self, tool: &'static str, arguments: String, answer: Arc<str>) {
        let mut answers = self.lock();
        if answers.len() >= MAX_ANSWERS
            && let Some(old) = answers.keys().next().cloned()
        {
            answers.remove(&old);
        }
        answers.insert((tool, arguments), answer);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_is_kept_per_tool_and_arguments_and_their_number_is_bounded() {
        let answers = Answers::default();
        answers.keep("company_get", r#"{"slug":"apple"}"#.into(), Arc::from("A"));
        assert_eq!(answers.get("company_get", r#"{"slug":"apple"}"#).as_deref(), Some("A"));
        assert_eq!(answers.get("company_get", r#"{"slug":"nvidia"}"#), None);
        assert_eq!(answers.get("company_search", r#"{"slug":"apple"}"#), None);
        for i in 0..MAX_ANSWERS + 10 {
            answers.keep("company_get", format!("{i}"), Arc::from("x"));
        }
        assert_eq!(answers.lock().len(), MAX_ANSWERS);
    }
}
