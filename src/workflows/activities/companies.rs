//! Activities over company data and the workspace's accounts: account reviews and content
//! briefs (with receipted facts: every fact carries its verbatim sentence and filing link),
//! lead research, the coordinator's intake, account research and work assignment.

use serde_json::{Value, json};

use super::{Activities, ActivityError, Compute, text};
use crate::brain::chat::named_company;
use crate::companies::card::{Card, CompanyRef};
use crate::companies::directory::Directory;
use crate::companies::enrich::ranked_signals;
use crate::domain::WorkflowType;
use crate::workflows::params::WorkflowParams;
use crate::workflows::script::ChildSpec;

/// Receipted facts kept per company.
const FACTS: usize = 3;
/// Companies a coordinator run works on at most.
const MAX_COMPANIES: usize = 3;

/// The best receipted statements of a card: `{kind, claim, quote, url, form, filed, score}`.
pub fn facts(card: &Card, as_of: &str) -> Vec<Value> {
    ranked_signals(card, as_of)
        .into_iter()
        .take(FACTS)
        .map(|(c, score)| {
            let r = c.receipt();
            json!({"kind": c.value().kind.as_str(), "claim": c.value().text, "quote": r.quote(), "url": r.url(),
                   "form": r.form(), "filed": r.filed(), "score": score})
        })
        .collect()
}

fn card_by_slug<'d>(directory: &'d Directory, slug: Option<&str>) -> Option<&'d Card> {
    slug.and_then(|s| directory.by_slug(s)).and_then(|c| c.card().map(|card| &**card))
}

fn company_json(directory: &Directory, card: Option<&Card>) -> Value {
    match card {
        Some(card) => {
            json!({"found": true, "company": CompanyRef::from(card), "signals": facts(card, directory.generated_at())})
        }
        None => json!({"found": false, "company": null, "signals": []}),
    }
}

/// The account (when the workspace has it), its company's receipted facts, its open deals.
pub async fn review_account(a: &Activities, input: &Value) -> Result<Value, ActivityError> {
    let account = a.store.account(text(input, "accountId")?).await?;
    let account_name = text(input, "accountName")?;
    let slug = account.as_ref().and_then(|acc| acc.company_slug.clone());
    let directory = &a.compute.directory;
    let card = card_by_slug(directory, slug.as_deref()).or_else(|| named_company(directory, account_name));
    let name = account.as_ref().map_or_else(|| account_name.to_owned(), |acc| acc.name.clone());
    let deals: Vec<Value> = a
        .store
        .deals()
        .await?
        .into_iter()
        .filter(|d| d.account_name == name && !d.stage.is_closed())
        .map(|d| json!({"id": d.id, "stage": d.stage, "value": d.value}))
        .collect();
    let mut out = company_json(directory, card);
    out["accountName"] = json!(name);
    out["knownAccount"] = json!(account.is_some());
    out["openDeals"] = json!(deals);
    Ok(out)
}

/// What a content draft is about: the account and its company's receipted facts.
pub async fn content_brief(a: &Activities, input: &Value) -> Result<Value, ActivityError> {
    let id = text(input, "accountId")?;
    let account = a.store.account(id).await?.ok_or_else(|| ActivityError::Input(format!("no account {id}")))?;
    let directory = &a.compute.directory;
    let card = card_by_slug(directory, account.company_slug.as_deref());
    let facts = card.map(|c| facts(c, directory.generated_at())).unwrap_or_default();
    Ok(
        json!({"accountId": id, "accountName": account.name, "contentType": text(input, "contentType")?, "facts": facts}),
    )
}

/// The lead's company in the receipted data set (by ticker, slug words or name), with its best signals.
pub fn research_company(a: &Compute, input: &Value) -> Result<Value, ActivityError> {
    let company = text(input, "company")?;
    let guess = crate::domain::Slug::from_name(company);
    let card =
        named_company(&a.directory, company).or_else(|| card_by_slug(&a.directory, guess.as_ref().map(|s| s.as_str())));
    Ok(company_json(&a.directory, card))
}

/// The goal's intake: the companies it names (at most three) and the kinds of work it asks for.
pub fn intake(a: &Compute, input: &Value) -> Result<Value, ActivityError> {
    let goal = text(input, "goal")?;
    let mut companies: Vec<String> = Vec::new();
    for part in goal.split([',', ';']).flat_map(|p| p.split(" and ")) {
        if let Some(card) = named_company(&a.directory, part)
            && !companies.contains(&card.slug)
            && companies.len() < MAX_COMPANIES
        {
            companies.push(card.slug.clone());
        }
    }
    let lower = goal.to_lowercase();
    let asks = |cues: &[&str]| cues.iter().any(|c| lower.contains(c));
    Ok(json!({
        "goal": goal,
        "companies": companies,
        "wants": {
            "content": asks(&["content", "email", "post", "blog", "campaign", "outreach"]),
            "onboarding": asks(&["onboard", "kickoff", "kick-off"]),
            "support": asks(&["ticket", "support", "incident", "outage"]),
        }
    }))
}

/// The receipted research of each company of the intake.
pub fn research_accounts(a: &Compute, input: &Value) -> Result<Value, ActivityError> {
    let slugs = slugs(input)?;
    let accounts: Vec<Value> =
        slugs.iter().map(|s| company_json(&a.directory, card_by_slug(&a.directory, Some(s)))).collect();
    Ok(json!({"accounts": accounts}))
}

/// The intake's company slugs, in `input["companies"]`.
fn slugs(input: &Value) -> Result<Vec<String>, ActivityError> {
    serde_json::from_value(input["companies"].clone())
        .map_err(|e| ActivityError::Input(format!("the input's companies are not a list of slugs: {e}")))
}

/// Assigns work to workers: lead qualification per named company (the SDR), content for the
/// first account when asked (the content writer), onboarding and support when asked.
pub async fn assign(a: &Activities, input: &Value) -> Result<Value, ActivityError> {
    let intake = &input["intake"];
    let slugs = slugs(intake)?;
    let accounts = a.store.accounts().await?;
    let account_of = |slug: &str| accounts.iter().find(|acc| acc.company_slug.as_deref() == Some(slug));
    let first_account = slugs.iter().find_map(|s| account_of(s)).or(accounts.first());
    let mut out = Vec::new();
    for slug in &slugs {
        let name =
            card_by_slug(&a.compute.directory, Some(slug)).map_or_else(|| slug.clone(), |c| c.legal_name.clone());
        let params = json!({"leadId": format!("lead-{slug}"), "company": name, "contact": "account team"});
        out.push(child(WorkflowType::LeadQualification, "sdr", params)?);
    }
    let wants = |k: &str| intake["wants"][k].as_bool() == Some(true);
    if let Some(acc) = first_account {
        if wants("content") || slugs.is_empty() {
            let params = json!({"contentType": "outreach-email", "accountId": acc.id});
            out.push(child(WorkflowType::ContentGeneration, "content-writer", params)?);
        }
        if wants("onboarding") {
            let params = json!({"accountId": acc.id, "accountName": acc.name});
            out.push(child(WorkflowType::ClientOnboarding, "onboarding-manager", params)?);
        }
    }
    if wants("support") {
        let goal = crate::domain::clip(text(input, "goal")?, 120);
        let params = json!({"ticketId": "coordinator-ticket", "subject": goal, "priority": "normal"});
        out.push(child(WorkflowType::TicketResolution, "support-resolver", params)?);
    }
    Ok(json!({"assignments": out}))
}

/// A child workflow of `kind` for `worker`, its parameters read as any start's are.
fn child(kind: WorkflowType, worker: &str, params: Value) -> Result<ChildSpec, ActivityError> {
    let Value::Object(map) = params else { return Err(ActivityError::Input("child params are not an object".into())) };
    let params = WorkflowParams::parse(kind, map).map_err(|e| ActivityError::Input(format!("child {kind}: {e}")))?;
    Ok(ChildSpec { worker: worker.to_owned(), params })
}
