//! The start forms of a worker's page: one per startable workflow type the worker runs, with
//! that type's parameters (the catalog's lists) as labelled inputs, posted to
//! `/app/workers/{id}/start`. The parameters are read by the same reader as
//! `POST /api/workers/{id}/start` (`WorkflowParams::parse`) and the start goes through the
//! workflow service (admins only); a refused start re-renders the page with 422 and each
//! field's problem under its input, what was typed kept.

use std::collections::BTreeMap;

use maud::{Markup, html};
use serde_json::{Map, Value};
use warp::Filter;
use warp::http::StatusCode;

use super::super::layout::field_error;
use super::super::{Answer, Page, Posted, form_fields, form_post, writer};
use super::render;
use crate::domain::WorkflowType;
use crate::http::error::ApiError;
use crate::state::AppState;
use crate::workflows::catalog::{WorkflowTypeView, catalog};
use crate::workflows::views::WorkerDetail;
use crate::workflows::{StartRequest, WorkflowError, WorkflowParams};

/// The choices of the parameters that take one of a few words (an empty `tier` is none).
const PRIORITIES: [&str; 4] = ["low", "normal", "high", "urgent"];
const TIERS: [&str; 4] = ["", "standard", "premium", "enterprise"];

/// The start form that was posted: its type, what was typed, and what was wrong with it.
#[derive(Default)]
pub(super) struct StartForm {
    kind: Option<WorkflowType>,
    values: BTreeMap<String, String>,
    problems: BTreeMap<String, String>,
    message: Option<String>,
}

impl StartForm {
    fn for_kind(&self, kind: WorkflowType) -> Option<&StartForm> {
        (self.kind == Some(kind)).then_some(self)
    }
}

pub(super) fn route(state: AppState) -> Page {
    warp::path!("app" / "workers" / String / "start")
        .and(warp::post())
        .and(form_post())
        .then(move |id: String, posted: Posted| {
            let state = state.clone();
            async move { start(&state, &id, &posted).await.unwrap_or_else(|answer| answer) }
        })
        .boxed()
}

/// The parameters as posted: every field but `type`, an empty input left out (so a required
/// one is `missing`, an optional one absent).
fn params_of(fields: &BTreeMap<String, String>) -> Map<String, Value> {
    fields
        .iter()
        .filter(|(k, v)| k.as_str() != "type" && !v.is_empty())
        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
        .collect()
}

/// `params.<field>: <problem>` (the service's words for a parameter it refused) split in two.
fn field_problem(message: &str) -> Option<(String, String)> {
    let (field, problem) = message.strip_prefix("params.")?.split_once(": ")?;
    Some((field.to_owned(), problem.to_owned()))
}

async fn start(state: &AppState, id: &str, posted: &Posted) -> Result<Answer, Answer> {
    let back = format!("/app/workers/{id}");
    let who = writer(state, posted, &back)?;
    let admin = who.require_admin().map_err(|e| {
        Answer::refused(Some(&who), StatusCode::FORBIDDEN, &format!("{e}: viewers can look, not start workflows"))
    })?;
    let workflows = state.workflows().map_err(|e| Answer::error(Some(&who), &ApiError::from(e)))?;
    let fields = form_fields(&posted.body)?;
    let kind = fields.get("type").and_then(|t| WorkflowType::parse(t)).filter(|k| !k.is_internal());
    let Some(kind) = kind else {
        return Err(Answer::refused(Some(&who), StatusCode::BAD_REQUEST, "Choose a workflow type this worker runs."));
    };
    let mut form = StartForm { kind: Some(kind), values: fields.clone(), ..StartForm::default() };
    let status = match WorkflowParams::parse(kind, params_of(&fields)) {
        Err(e) => {
            form.problems.insert(e.field, e.problem);
            StatusCode::UNPROCESSABLE_ENTITY
        }
        Ok(params) => match workflows.start(admin, id, StartRequest { params }).await {
            Ok(reply) => {
                return Ok(Answer::SeeOther(format!("/app/workers/{}?started={}", reply.worker, reply.workflow_id)));
            }
            Err(WorkflowError::BadInput(message)) if field_problem(&message).is_some() => {
                form.problems.extend(field_problem(&message));
                StatusCode::UNPROCESSABLE_ENTITY
            }
            Err(e) => {
                let (status, _, message) = ApiError::from(e).public();
                form.message = Some(message);
                status
            }
        },
    };
    Ok(render(state, &who, id, form, None, status).await)
}

/// "accountId" → "Account id".
fn label(param: &str) -> String {
    let mut out = String::with_capacity(param.len() + 4);
    for (i, c) in param.chars().enumerate() {
        if i == 0 {
            out.extend(c.to_uppercase());
        } else if c.is_ascii_uppercase() {
            out.push(' ');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The section of start forms, one per startable type `worker` runs.
pub(super) fn forms(worker: &WorkerDetail, posted: &StartForm) -> Markup {
    let types: Vec<WorkflowTypeView> = catalog(&[])
        .types
        .into_iter()
        .filter(|t| t.startable && worker.workflow_types.iter().any(|w| w == t.kind.as_str()))
        .collect();
    html! {
        section #start aria-labelledby="start-heading" {
            h2 #start-heading { "Start a workflow" }
            @if types.is_empty() {
                p.empty { "This worker runs no workflow that can be started by hand." }
            } @else {
                div.start-forms {
                    @for t in &types { (form(&worker.worker.id, t, posted.for_kind(t.kind))) }
                }
            }
        }
    }
}

fn form(worker: &str, t: &WorkflowTypeView, posted: Option<&StartForm>) -> Markup {
    let kind = t.kind.as_str();
    let params = t.required_params.iter().map(|p| (p, true)).chain(t.optional_params.iter().map(|p| (p, false)));
    html! {
        form.card.start #{ "start-" (kind) } method="post" action={ "/app/workers/" (worker) "/start" } {
            h3 { (kind) }
            p.hint { (t.description) }
            @if let Some(message) = posted.and_then(|p| p.message.as_ref()) {
                p.error id={ "start-" (kind) "-message" } role="alert" { (message) }
            }
            input type="hidden" name="type" value=(kind);
            @for (param, required) in params {
                @let id = format!("start-{kind}-{param}");
                @let error_id = format!("{id}-error");
                @let problem = posted.and_then(|p| p.problems.get(param.as_str()));
                @let value = posted.and_then(|p| p.values.get(param.as_str())).map_or("", String::as_str);
                div.field {
                    label for=(id) { (label(param)) @if !required { " (optional)" } }
                    @match param.as_str() {
                        "priority" => (choice(&id, param, &PRIORITIES, value, problem.map(|_| error_id.as_str()))),
                        "tier" => (choice(&id, param, &TIERS, value, problem.map(|_| error_id.as_str()))),
                        _ => input id=(id) name=(param) type="text" maxlength="1000" value=(value) required[required]
                            aria-invalid=[problem.map(|_| "true")] aria-describedby=[problem.map(|_| &error_id)];
                    }
                    (field_error(&error_id, problem))
                }
            }
            button type="submit" { "Start " (kind) }
        }
    }
}

fn choice(id: &str, name: &str, options: &[&str], value: &str, error_id: Option<&str>) -> Markup {
    html! {
        select id=(id) name=(name) aria-invalid=[error_id.map(|_| "true")] aria-describedby=[error_id] {
            @for o in options {
                option value=(o) selected[*o == value] { @if o.is_empty() { "none" } @else { (o) } }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_leave_out_the_type_and_empty_inputs() {
        let fields: BTreeMap<String, String> =
            [("type", "client-onboarding"), ("accountId", "a-1"), ("tier", ""), ("accountName", " ")]
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v.to_owned()))
                .collect();
        let params = params_of(&fields);
        assert_eq!(params.keys().map(String::as_str).collect::<Vec<_>>(), ["accountId", "accountName"]);
    }

    #[test]
    fn a_service_refusal_names_its_field() {
        assert_eq!(
            field_problem("params.accountId: no account x in the workspace"),
            Some(("accountId".into(), "no account x in the workspace".into()))
        );
        assert_eq!(field_problem("worker sdr does not run x"), None);
        assert_eq!(label("accountId"), "Account id");
        assert_eq!(label("leadId"), "Lead id");
    }
}
