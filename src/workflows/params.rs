//! Each workflow type's parameters as a type. They are read once where a workflow is asked for
//! (`POST /api/workers/:id/start`, the `worker_start_workflow` tool, a coordinator's child
//! specs) and refused there with the field named (`params.contact: missing`); from then on the
//! engines, the history and the Temporal payloads carry `WorkflowParams`, and the definitions
//! read typed fields, never a default for a missing one. The stored form is the object of the
//! parameters (as the API shows it), read back through the same rules.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::domain::{Priority, WorkflowType};

/// Longest parameter value, in characters.
pub const MAX_PARAM_CHARS: usize = 1_000;

/// Why parameters were refused: the field and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("params.{field}: {problem}")]
pub struct ParamError {
    pub field: String,
    pub problem: String,
}

impl ParamError {
    fn new(field: &str, problem: impl Into<String>) -> Self {
        Self { field: field.to_owned(), problem: problem.into() }
    }
}

/// A parameter's text: not blank, at most `MAX_PARAM_CHARS` characters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct ParamText(String);

impl ParamText {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::ops::Deref for ParamText {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for ParamText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// An onboarding's support tier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Tier {
    Standard,
    Premium,
    Enterprise,
}

impl Tier {
    const ALL: [Tier; 3] = [Tier::Standard, Tier::Premium, Tier::Enterprise];

    pub fn as_str(self) -> &'static str {
        match self {
            Tier::Standard => "standard",
            Tier::Premium => "premium",
            Tier::Enterprise => "enterprise",
        }
    }
}

/// Reads one parameter object: each field taken by name, then `finish` refuses what is left.
struct Fields {
    map: Map<String, Value>,
}

impl Fields {
    fn text(&mut self, name: &str) -> Result<ParamText, ParamError> {
        self.optional_text(name)?.ok_or_else(|| ParamError::new(name, "missing"))
    }

    fn optional_text(&mut self, name: &str) -> Result<Option<ParamText>, ParamError> {
        let Some(value) = self.map.remove(name) else { return Ok(None) };
        let Value::String(text) = value else { return Err(ParamError::new(name, "must be a string")) };
        if text.trim().is_empty() || text.chars().count() > MAX_PARAM_CHARS {
            return Err(ParamError::new(name, format!("must be 1 to {MAX_PARAM_CHARS} characters, not only spaces")));
        }
        Ok(Some(ParamText(text)))
    }

    fn priority(&mut self, name: &str) -> Result<Priority, ParamError> {
        let text = self.text(name)?;
        Priority::parse(&text).ok_or_else(|| ParamError::new(name, "must be low, normal, high or urgent"))
    }

    fn tier(&mut self, name: &str) -> Result<Option<Tier>, ParamError> {
        let Some(text) = self.optional_text(name)? else { return Ok(None) };
        let tier = Tier::ALL.into_iter().find(|t| t.as_str() == text.as_str());
        tier.map(Some).ok_or_else(|| ParamError::new(name, "must be standard, premium or enterprise"))
    }

    /// Refuses any field not taken, naming what the type takes.
    fn finish(self, takes: &[&str]) -> Result<(), ParamError> {
        match self.map.keys().next() {
            None => Ok(()),
            Some(unknown) if takes.is_empty() => Err(ParamError::new(unknown, "unknown (this type takes no params)")),
            Some(unknown) => Err(ParamError::new(unknown, format!("unknown (this type takes {})", takes.join(", ")))),
        }
    }
}

/// The catalog's lists: required and optional fields of each type, as the readers take them.
pub fn fields(kind: WorkflowType) -> (&'static [&'static str], &'static [&'static str]) {
    match kind {
        WorkflowType::ClientOnboarding => (&["accountId", "accountName"], &["tier"]),
        WorkflowType::LeadQualification => (&["leadId", "company", "contact"], &[]),
        WorkflowType::ContentGeneration => (&["contentType", "accountId"], &[]),
        WorkflowType::TicketResolution => (&["ticketId", "subject", "priority"], &[]),
        WorkflowType::Coordinator => (&["goal"], &[]),
        WorkflowType::MemoryCompression => (&[], &[]),
    }
}

/// Reads `map` as `kind`'s parameters with `read`, then refuses any field `read` left. A missing
/// field's error names the unknown ones given (a misspelling shows beside what it misspelt).
fn read<T>(
    kind: WorkflowType,
    map: Map<String, Value>,
    read: impl FnOnce(&mut Fields) -> Result<T, ParamError>,
) -> Result<T, ParamError> {
    let (required, optional) = self::fields(kind);
    let takes = [required, optional].concat();
    let mut fields = Fields { map };
    match read(&mut fields) {
        Ok(params) => fields.finish(&takes).map(|()| params),
        Err(mut error) => {
            let unknown: Vec<&str> = fields.map.keys().map(String::as_str).filter(|k| !takes.contains(k)).collect();
            if !unknown.is_empty() {
                error.problem.push_str(&format!(" (unknown params given: {})", unknown.join(", ")));
            }
            Err(error)
        }
    }
}

/// client-onboarding.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "Map<String, Value>", rename_all = "camelCase")]
pub struct OnboardingParams {
    pub account_id: ParamText,
    pub account_name: ParamText,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tier: Option<Tier>,
}

impl TryFrom<Map<String, Value>> for OnboardingParams {
    type Error = ParamError;
    fn try_from(map: Map<String, Value>) -> Result<Self, ParamError> {
        read(WorkflowType::ClientOnboarding, map, |f| {
            Ok(Self { account_id: f.text("accountId")?, account_name: f.text("accountName")?, tier: f.tier("tier")? })
        })
    }
}

/// lead-qualification.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "Map<String, Value>", rename_all = "camelCase")]
pub struct LeadParams {
    pub lead_id: ParamText,
    pub company: ParamText,
    pub contact: ParamText,
}

impl TryFrom<Map<String, Value>> for LeadParams {
    type Error = ParamError;
    fn try_from(map: Map<String, Value>) -> Result<Self, ParamError> {
        read(WorkflowType::LeadQualification, map, |f| {
            Ok(Self { lead_id: f.text("leadId")?, company: f.text("company")?, contact: f.text("contact")? })
        })
    }
}

/// content-generation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "Map<String, Value>", rename_all = "camelCase")]
pub struct ContentParams {
    pub content_type: ParamText,
    pub account_id: ParamText,
}

impl TryFrom<Map<String, Value>> for ContentParams {
    type Error = ParamError;
    fn try_from(map: Map<String, Value>) -> Result<Self, ParamError> {
        read(WorkflowType::ContentGeneration, map, |f| {
            Ok(Self { content_type: f.text("contentType")?, account_id: f.text("accountId")? })
        })
    }
}

/// ticket-resolution.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "Map<String, Value>", rename_all = "camelCase")]
pub struct TicketParams {
    pub ticket_id: ParamText,
    pub subject: ParamText,
    pub priority: Priority,
}

impl TryFrom<Map<String, Value>> for TicketParams {
    type Error = ParamError;
    fn try_from(map: Map<String, Value>) -> Result<Self, ParamError> {
        read(WorkflowType::TicketResolution, map, |f| {
            Ok(Self { ticket_id: f.text("ticketId")?, subject: f.text("subject")?, priority: f.priority("priority")? })
        })
    }
}

/// coordinator (its goal is checked by `POST /api/coordinator/runs`, up to 2,000 characters).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "Map<String, Value>")]
pub struct CoordinatorParams {
    pub goal: String,
}

impl TryFrom<Map<String, Value>> for CoordinatorParams {
    type Error = ParamError;
    fn try_from(map: Map<String, Value>) -> Result<Self, ParamError> {
        read(WorkflowType::Coordinator, map, |f| match f.map.remove("goal") {
            Some(Value::String(goal)) if !goal.trim().is_empty() => Ok(Self { goal }),
            Some(_) => Err(ParamError::new("goal", "must be a string, not only spaces")),
            None => Err(ParamError::new("goal", "missing")),
        })
    }
}

/// memory-compression takes no parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "Map<String, Value>")]
pub struct CompressionParams {}

impl TryFrom<Map<String, Value>> for CompressionParams {
    type Error = ParamError;
    fn try_from(map: Map<String, Value>) -> Result<Self, ParamError> {
        read(WorkflowType::MemoryCompression, map, |_| Ok(Self {}))
    }
}

/// A workflow's parameters, by type. Serialized as `{"type": ..., "params": {...}}` (a child
/// spec and the Temporal start input carry it so).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "params", rename_all = "kebab-case")]
pub enum WorkflowParams {
    ClientOnboarding(OnboardingParams),
    LeadQualification(LeadParams),
    ContentGeneration(ContentParams),
    TicketResolution(TicketParams),
    Coordinator(CoordinatorParams),
    MemoryCompression(CompressionParams),
}

impl WorkflowParams {
    /// Reads `map` as the parameters of `kind`.
    pub fn parse(kind: WorkflowType, map: Map<String, Value>) -> Result<Self, ParamError> {
        Ok(match kind {
            WorkflowType::ClientOnboarding => Self::ClientOnboarding(map.try_into()?),
            WorkflowType::LeadQualification => Self::LeadQualification(map.try_into()?),
            WorkflowType::ContentGeneration => Self::ContentGeneration(map.try_into()?),
            WorkflowType::TicketResolution => Self::TicketResolution(map.try_into()?),
            WorkflowType::Coordinator => Self::Coordinator(map.try_into()?),
            WorkflowType::MemoryCompression => Self::MemoryCompression(map.try_into()?),
        })
    }

    /// Reads the stored form (`to_text`) of `kind`'s parameters.
    pub fn from_text(kind: WorkflowType, text: &str) -> Result<Self, ParamError> {
        match serde_json::from_str(text) {
            Ok(map) => Self::parse(kind, map),
            Err(e) => Err(ParamError::new("", format!("the stored parameters are not a JSON object: {e}"))),
        }
    }

    pub fn kind(&self) -> WorkflowType {
        match self {
            Self::ClientOnboarding(_) => WorkflowType::ClientOnboarding,
            Self::LeadQualification(_) => WorkflowType::LeadQualification,
            Self::ContentGeneration(_) => WorkflowType::ContentGeneration,
            Self::TicketResolution(_) => WorkflowType::TicketResolution,
            Self::Coordinator(_) => WorkflowType::Coordinator,
            Self::MemoryCompression(_) => WorkflowType::MemoryCompression,
        }
    }

    /// The parameters as the API shows them: one object.
    pub fn to_value(&self) -> Value {
        let value = match self {
            Self::ClientOnboarding(p) => serde_json::to_value(p),
            Self::LeadQualification(p) => serde_json::to_value(p),
            Self::ContentGeneration(p) => serde_json::to_value(p),
            Self::TicketResolution(p) => serde_json::to_value(p),
            Self::Coordinator(p) => serde_json::to_value(p),
            Self::MemoryCompression(p) => serde_json::to_value(p),
        };
        // Plain structs of strings and enums: serializing them cannot fail.
        value.unwrap_or_else(|_| Value::Object(Map::new()))
    }

    /// The stored form: `to_value` as JSON text.
    pub fn to_text(&self) -> String {
        self.to_value().to_string()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn parse(kind: WorkflowType, params: Value) -> Result<WorkflowParams, String> {
        let Value::Object(map) = params else { panic!("an object") };
        WorkflowParams::parse(kind, map).map_err(|e| e.to_string())
    }

    #[test]
    fn a_missing_or_misspelt_field_is_refused_by_name() {
        let lead = WorkflowType::LeadQualification;
        assert_eq!(parse(lead, json!({"leadId": "l", "company": "Apple"})), Err("params.contact: missing".into()));
        assert_eq!(
            parse(lead, json!({"leadId": "l", "company": "Apple", "contcat": "c"})),
            Err("params.contact: missing (unknown params given: contcat)".into())
        );
        assert_eq!(
            parse(lead, json!({"leadId": "l", "company": "Apple", "contact": "c", "contcat": "c"})),
            Err("params.contcat: unknown (this type takes leadId, company, contact)".into())
        );
        assert_eq!(
            parse(lead, json!({"leadId": 7, "company": "Apple", "contact": "c"})),
            Err("params.leadId: must be a string".into())
        );
        let ticket = json!({"ticketId": "t", "subject": "down", "priority": "asap"});
        assert_eq!(
            parse(WorkflowType::TicketResolution, ticket),
            Err("params.priority: must be low, normal, high or urgent".into())
        );
        let onboarding = json!({"accountId": "a", "accountName": "A", "tier": "gold"});
        assert_eq!(
            parse(WorkflowType::ClientOnboarding, onboarding),
            Err("params.tier: must be standard, premium or enterprise".into())
        );
        assert_eq!(
            parse(WorkflowType::MemoryCompression, json!({"x": "y"})),
            Err("params.x: unknown (this type takes no params)".into())
        );
    }

    #[test]
    fn every_type_reads_its_listed_fields_and_round_trips_through_text_and_payloads() {
        for kind in WorkflowType::ALL {
            let (required, optional) = fields(kind);
            let map: Map<String, Value> = required
                .iter()
                .map(|k| (k.to_string(), json!(if *k == "priority" { "urgent" } else { "x" })))
                .collect();
            let params = WorkflowParams::parse(kind, map.clone()).expect("the required fields are enough");
            assert_eq!(params.kind(), kind);
            assert_eq!(params.to_value(), Value::Object(map));
            assert_eq!(WorkflowParams::from_text(kind, &params.to_text()), Ok(params.clone()));
            let payload = serde_json::to_value(&params).expect("serializes");
            assert_eq!(payload["type"], json!(kind));
            assert_eq!(serde_json::from_value::<WorkflowParams>(payload).ok(), Some(params));
            for field in required {
                let mut partial: Map<String, Value> = Map::new();
                for k in required.iter().filter(|k| *k != field) {
                    partial.insert(k.to_string(), json!(if *k == "priority" { "low" } else { "x" }));
                }
                assert_eq!(WorkflowParams::parse(kind, partial).map_err(|e| e.field), Err(field.to_string()));
            }
            assert!(optional.iter().all(|o| !required.contains(o)));
        }
    }

    #[test]
    fn a_payload_with_a_bad_field_does_not_deserialize() {
        let payload = json!({"type": "lead-qualification", "params": {"leadId": "l", "company": "A"}});
        let error = serde_json::from_value::<WorkflowParams>(payload).map(|_| ()).map_err(|e| e.to_string());
        assert_eq!(error, Err("params.contact: missing".into()));
    }
}
