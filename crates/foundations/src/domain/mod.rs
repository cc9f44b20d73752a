//! Newtypes and rules that parse input once at the edge: receipts, signal kinds, slugs,
//! tickers, domain names, deal and workflow vocabulary, percents and calendar dates.
//! Imports nothing of ours; knows nothing of HTTP or storage.

mod deal;
mod domain_name;
mod figures;
mod memory;
pub mod paging;
mod receipt;
mod role;
mod signal;
mod slug;
mod tenant;
mod ticker;
mod values;
mod words;
mod workflow;

pub use deal::{ChampionStatus, DealType, Stage};
pub use domain_name::{DomainError, DomainName};
pub use figures::{clip, grouped, usd};
pub use memory::{
    ID_PATTERN, KEY_PATTERN, MemoryAddressError, MemoryKey, MemoryScope, SCOPE_OR_EMPTY_PATTERN, SCOPE_PATTERN, TeamId,
};
pub use receipt::{Claim, PRESS_RELEASE_FORM, Receipt, ReceiptError, Source};
pub use role::Role;
pub use signal::SignalKind;
pub use slug::{Slug, SlugError};
pub use tenant::{Tenant, TenantError};
pub use ticker::{Ticker, TickerError};
pub use values::{CalendarDate, DateError, Percent, PercentError, rfc3339_ms, whole_number, whole_number_opt};
pub use words::{each_search_word, estimate_tokens, name_words, search_words};
pub use workflow::{Decision, Priority, StepStatus, WorkflowStatus, WorkflowType};
