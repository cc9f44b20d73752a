//! The `[llm]` settings (file) and `GTMS_LLM_*` (environment): which provider answers
//! (`demo`, `openai` for any OpenAI-compatible endpoint, `anthropic`), where, with which key
//! (a `Secret`), the model of each task type, the timeout and the price table.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::{ConfigError, Secret, invalid, number};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Provider {
    Demo,
    OpenAi,
    Anthropic,
}

impl Provider {
    pub fn as_str(self) -> &'static str {
        match self {
            Provider::Demo => "demo",
            Provider::OpenAi => "openai",
            Provider::Anthropic => "anthropic",
        }
    }
}

/// USD per million tokens.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Price {
    pub input: f64,
    pub output: f64,
}

/// The validated model settings.
#[derive(Debug, Clone, PartialEq)]
pub struct LlmSettings {
    pub provider: Provider,
    pub base_url: String,
    pub api_key: Option<Secret>,
    pub model_research: String,
    pub model_content: String,
    pub model_fast: String,
    pub timeout_secs: u64,
    /// Model name -> price; a model without a row costs nothing.
    pub prices: BTreeMap<String, Price>,
}

/// One layer of `[llm]`; every field optional so layers merge field by field.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LlmLayer {
    pub provider: Option<String>,
    pub base_url: Option<String>,
    pub api_key: Option<Secret>,
    pub model_research: Option<String>,
    pub model_content: Option<String>,
    pub model_fast: Option<String>,
    pub timeout_secs: Option<u64>,
    pub prices: Option<BTreeMap<String, Price>>,
}

impl LlmLayer {
    pub fn merge(self, over: LlmLayer) -> LlmLayer {
        let LlmLayer { provider, base_url, api_key, model_research, model_content, model_fast, timeout_secs, prices } =
            over;
        LlmLayer {
            provider: provider.or(self.provider),
            base_url: base_url.or(self.base_url),
            api_key: api_key.or(self.api_key),
            model_research: model_research.or(self.model_research),
            model_content: model_content.or(self.model_content),
            model_fast: model_fast.or(self.model_fast),
            timeout_secs: timeout_secs.or(self.timeout_secs),
            prices: prices.or(self.prices),
        }
    }

    /// `GTMS_LLM_*`; `None` when none is set. Prices: `model=in/out,model2=in/out` (USD per
    /// million tokens).
    pub fn from_env(get: &impl Fn(&str) -> Option<String>) -> Result<Option<LlmLayer>, ConfigError> {
        let prices = match get("GTMS_LLM_PRICES") {
            None => None,
            Some(v) => Some(parse_prices(&v)?),
        };
        let layer = LlmLayer {
            provider: get("GTMS_LLM_PROVIDER"),
            base_url: get("GTMS_LLM_BASE_URL"),
            api_key: get("GTMS_LLM_API_KEY").map(Secret::new),
            model_research: get("GTMS_LLM_MODEL_RESEARCH"),
            model_content: get("GTMS_LLM_MODEL_CONTENT"),
            model_fast: get("GTMS_LLM_MODEL_FAST"),
            timeout_secs: number(get, "GTMS_LLM_TIMEOUT_SECS")?,
            prices,
        };
        let any = layer.provider.is_some()
            || layer.base_url.is_some()
            || layer.api_key.is_some()
            || layer.model_research.is_some()
            || layer.model_content.is_some()
            || layer.model_fast.is_some()
            || layer.timeout_secs.is_some()
            || layer.prices.is_some();
        Ok(any.then_some(layer))
    }

    pub fn validate(self) -> Result<LlmSettings, ConfigError> {
        let provider = match self.provider.as_deref().unwrap_or("demo") {
            "demo" => Provider::Demo,
            "openai" => Provider::OpenAi,
            "anthropic" => Provider::Anthropic,
            other => return Err(invalid("llm provider", format!("{other:?} is not demo, openai or anthropic"))),
        };
        let default_url = match provider {
            Provider::Demo => "",
            Provider::OpenAi => "https://api.openai.com/v1",
            Provider::Anthropic => "https://api.anthropic.com",
        };
        let base_url = self.base_url.unwrap_or_else(|| default_url.to_owned()).trim_end_matches('/').to_owned();
        if provider != Provider::Demo && !(base_url.starts_with("http://") || base_url.starts_with("https://")) {
            return Err(invalid("llm base_url", format!("{base_url:?} is not an http(s) URL")));
        }
        if provider == Provider::Anthropic && self.api_key.is_none() {
            return Err(invalid("llm api_key", "the anthropic provider needs an API key"));
        }
        let research = match (provider, self.model_research) {
            (_, Some(m)) => m,
            (Provider::Demo, None) => crate::brain::DEMO_MODEL.to_owned(),
            (_, None) => return Err(invalid("llm model_research", "name the model of the research task")),
        };
        let timeout_secs = self.timeout_secs.unwrap_or(60);
        if timeout_secs == 0 {
            return Err(invalid("llm timeout_secs", "must be at least 1"));
        }
        Ok(LlmSettings {
            provider,
            base_url,
            api_key: self.api_key,
            model_content: self.model_content.unwrap_or_else(|| research.clone()),
            model_fast: self.model_fast.unwrap_or_else(|| research.clone()),
            model_research: research,
            timeout_secs,
            prices: self.prices.unwrap_or_default(),
        })
    }
}

fn parse_prices(v: &str) -> Result<BTreeMap<String, Price>, ConfigError> {
    let bad = || invalid("GTMS_LLM_PRICES", "expected model=input/output,... (USD per million tokens)");
    let mut out = BTreeMap::new();
    for item in v.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        let (model, pair) = item.rsplit_once('=').ok_or_else(bad)?;
        let (input, output) = pair.split_once('/').ok_or_else(bad)?;
        let price = Price {
            input: input.trim().parse().map_err(|_| bad())?,
            output: output.trim().parse().map_err(|_| bad())?,
        };
        out.insert(model.trim().to_owned(), price);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demo_provider_is_the_default_and_real_ones_need_a_model() {
        let demo = LlmLayer::default().validate().unwrap();
        assert_eq!((demo.provider, demo.model_fast.as_str()), (Provider::Demo, crate::brain::DEMO_MODEL));
        let openai = LlmLayer { provider: Some("openai".into()), ..LlmLayer::default() };
        assert!(openai.clone().validate().is_err());
        let ok = LlmLayer { model_research: Some("llama3.1".into()), ..openai }.validate();
        let ok = ok.unwrap();
        assert_eq!((ok.model_content.as_str(), ok.base_url.as_str()), ("llama3.1", "https://api.openai.com/v1"));
        let anthropic =
            LlmLayer { provider: Some("anthropic".into()), model_research: Some("m".into()), ..LlmLayer::default() };
        assert!(anthropic.validate().is_err(), "anthropic needs a key");
        assert!(LlmLayer { provider: Some("gpt".into()), ..LlmLayer::default() }.validate().is_err());
    }

    #[test]
    fn env_layers_merge_over_file_layers_and_prices_parse() {
        let env = |k: &str| match k {
            "GTMS_LLM_MODEL_FAST" => Some("small".to_owned()),
            "GTMS_LLM_PRICES" => Some("big=3/15, small=0.25/1.25".to_owned()),
            "GTMS_LLM_API_KEY" => Some("sk-secret".to_owned()),
            _ => None,
        };
        let file: LlmLayer =
            toml::from_str("provider = \"openai\"\nmodel_research = \"big\"\nmodel_fast = \"tiny\"").unwrap();
        let env = LlmLayer::from_env(&env).unwrap().unwrap_or_default();
        let s = file.merge(env).validate().unwrap();
        assert_eq!((s.model_research.as_str(), s.model_fast.as_str()), ("big", "small"));
        assert_eq!(s.prices.get("small"), Some(&Price { input: 0.25, output: 1.25 }));
        assert!(!format!("{s:?}").contains("sk-secret"));
        assert!(parse_prices("x=1").is_err());
    }
}
