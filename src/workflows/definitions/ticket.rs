//! ticket-resolution: classify the ticket with the fast model, draft a reply, and park for an
//! agent's review under the SLA timer of the ticket's priority. When the timer lapses first, the
//! ticket is escalated with a notification and stays parked for the review (no deadline now).
//! Approved → resolved with the drafted reply; rejected → handed to a human (completed, not
//! resolved by the worker).

use serde_json::json;

use crate::workflows::params::TicketParams;
use crate::workflows::script::{ActivityKind, Command, Deadlines, History, memory_key, run};

pub const STEPS: &[&str] = &["classify", "draft-reply", "review", "escalate", "resolve"];

pub fn next(h: &History, p: &TicketParams, sla: &Deadlines) -> Command {
    let priority = p.priority;
    let Some(class) = h.last("classify") else {
        let input = json!({"ticketId": p.ticket_id, "subject": p.subject, "priority": priority});
        return run("classify", ActivityKind::ClassifyTicket, input);
    };
    let Some(reply) = h.last("draft-reply") else {
        return run("draft-reply", ActivityKind::DraftReply, json!({"subject": p.subject, "classification": class}));
    };
    let summary = format!(
        "Reply to ticket {} ({}, {}): approve to send",
        p.ticket_id,
        priority.as_str(),
        class["category"].as_str().unwrap_or_default()
    );
    match h.decision("review") {
        None => {
            let deadline = Some(sla.secs(priority));
            return Command::Await { step: "review", summary, deadline_secs: deadline };
        }
        Some("timeout") if h.last("escalate").is_none() => {
            let text = format!(
                "SLA lapsed on ticket {} ({}, {} priority): escalated to a human ({})",
                p.ticket_id,
                p.subject,
                priority.as_str(),
                h.id
            );
            return run("escalate", ActivityKind::Record, json!({"notify": {"event": "sla.escalated", "text": text}}));
        }
        Some("timeout") => return Command::Await { step: "review", summary, deadline_secs: None },
        Some(_) => {}
    }
    let approved = h.decision("review") == Some("approve");
    if h.last("resolve").is_none() {
        let outcome = if approved { "resolved with the drafted reply" } else { "handed to a human agent" };
        let entry = json!({"scope": format!("worker:{}", h.worker), "key": memory_key("tickets", &p.ticket_id),
            "value": format!("Ticket {} ({}): {outcome}", p.ticket_id, p.subject), "tags": ["ticket", priority.as_str()]});
        return run("resolve", ActivityKind::Record, json!({"entries": [entry]}));
    }
    Command::Complete(json!({
        "ticketId": p.ticket_id, "category": class["category"], "resolved": approved,
        "escalated": h.last("escalate").is_some(), "reply": reply["text"],
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::WorkflowType;
    use crate::workflows::definitions::next;

    const KIND: WorkflowType = WorkflowType::TicketResolution;

    #[test]
    fn the_sla_picks_the_deadline_and_a_lapse_escalates_once() {
        let sla = Deadlines { urgent: 5, ..Deadlines::default() };
        let params = json!({"ticketId": "t1", "subject": "down", "priority": "urgent"});
        let base = vec![("classify", json!({"category": "outage"})), ("draft-reply", json!({"text": "r"}))];
        let h = History::from_parts("wf", "support-resolver", KIND, params.clone(), base.clone());
        assert!(matches!(next(&h, &sla), Command::Await { deadline_secs: Some(5), .. }));
        let mut lapsed = base.clone();
        lapsed.push(("review", json!({"decision": "timeout"})));
        let h = History::from_parts("wf", "support-resolver", KIND, params.clone(), lapsed.clone());
        assert!(matches!(next(&h, &sla), Command::Run { step: "escalate", .. }));
        lapsed.push(("escalate", json!({})));
        let h = History::from_parts("wf", "support-resolver", KIND, params, lapsed);
        assert!(matches!(next(&h, &sla), Command::Await { deadline_secs: None, .. }));
    }
}
