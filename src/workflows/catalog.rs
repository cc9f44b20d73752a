//! The catalog of the six registered workflow types: what each does, its steps in order, its
//! required and optional parameters, whether the API may start it, and which workers run it
//! (from the store's roster). Read by the `workflow_types` MCP tool; knows nothing of faces.

use schemars::JsonSchema;
use serde::Serialize;

use super::definitions;
use crate::domain::WorkflowType;
use crate::store::{Store, StoreError, WorkerRecord};

/// One registered workflow type.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WorkflowTypeView {
    #[serde(rename = "type")]
    pub kind: WorkflowType,
    pub description: String,
    /// Whether `POST /api/workers/:id/start` (and `worker_start_workflow`) may start it;
    /// internal types are started by the appliance (the coordinator route, the scheduler).
    pub startable: bool,
    /// The steps in the order they normally run.
    pub steps: Vec<String>,
    pub required_params: Vec<String>,
    pub optional_params: Vec<String>,
    /// Ids of the workers that run it.
    pub workers: Vec<String>,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct WorkflowTypes {
    pub types: Vec<WorkflowTypeView>,
}

fn description(kind: WorkflowType) -> &'static str {
    match kind {
        WorkflowType::ClientOnboarding => {
            "Reviews a new account, drafts a kickoff plan, waits for a human's approval of the plan (a rejected \
             plan is revised once), writes it to memory and notifies the team. Optional tier: standard, premium \
             or enterprise."
        }
        WorkflowType::LeadQualification => {
            "Researches the lead's company from its receipted card, analyses a seeded sales call when one \
             exists, scores and routes the lead and records the result in memory. No approval."
        }
        WorkflowType::ContentGeneration => {
            "Builds a brief from the account and its company's receipted facts, drafts with the content model, \
             waits for a human's approval, then publishes to memory and notifies (a rejection cancels it \
             unpublished)."
        }
        WorkflowType::TicketResolution => {
            "Classifies a ticket with the fast model, drafts a reply and waits for an agent's review under the SLA \
             timer of its priority (low, normal, high, urgent); when the timer lapses first it escalates with a \
             notification. Approved: resolved with the reply; rejected: handed to a human."
        }
        WorkflowType::Coordinator => {
            "Internal (start it with coordinator_run): intake, load context, research accounts, plan, assign, \
             dispatch child workflows, await their results and approvals, synthesize, write memory and notify."
        }
        WorkflowType::MemoryCompression => {
            "Internal (started by the scheduler): folds a worker's oldest unpinned memory into a summary when \
             over budget."
        }
    }
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| (*s).to_owned()).collect()
}

/// The catalog for a roster of workers.
pub fn catalog(workers: &[WorkerRecord]) -> WorkflowTypes {
    let types = WorkflowType::ALL
        .into_iter()
        .map(|kind| {
            let (required, optional) = super::params::fields(kind);
            WorkflowTypeView {
                kind,
                description: description(kind).to_owned(),
                startable: !kind.is_internal(),
                steps: strings(definitions::steps(kind)),
                required_params: strings(required),
                optional_params: strings(optional),
                workers: workers
                    .iter()
                    .filter(|w| w.workflow_types.iter().any(|t| t == kind.as_str()))
                    .map(|w| w.id.clone())
                    .collect(),
            }
        })
        .collect();
    WorkflowTypes { types }
}

/// The catalog for the store's workers.
pub async fn types(store: &Store) -> Result<WorkflowTypes, StoreError> {
    Ok(catalog(&store.workers().await?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_type_is_listed_with_its_steps_params_and_workers() {
        let roster = vec![WorkerRecord {
            id: "sdr".into(),
            name: "Sasha".into(),
            role: "SDR".into(),
            team: "sales".into(),
            workflow_types: vec!["lead-qualification".into()],
        }];
        let c = catalog(&roster);
        assert_eq!(c.types.len(), 6);
        assert_eq!(c.types.iter().filter(|t| t.startable).count(), 4);
        let lead = c.types.iter().find(|t| t.kind == WorkflowType::LeadQualification).expect("lead");
        assert_eq!(lead.workers, ["sdr"]);
        assert_eq!(lead.required_params, ["leadId", "company", "contact"]);
        assert_eq!(lead.steps.len(), 5);
        let onboarding = c.types.iter().find(|t| t.kind == WorkflowType::ClientOnboarding).expect("onboarding");
        assert_eq!((onboarding.optional_params.as_slice(), onboarding.workers.len()), (&["tier".to_owned()][..], 0));
    }
}
