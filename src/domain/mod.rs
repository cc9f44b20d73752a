//! Newtypes and rules that parse input once at the edge: receipts, signal kinds, slugs,
//! tickers, domain names, deal vocabulary, percents and calendar dates.
//! Imports nothing of ours; knows nothing of HTTP or storage.

mod deal;
mod domain_name;
mod memory;
mod receipt;
mod role;
mod signal;
mod slug;
mod tenant;
mod ticker;
mod values;
mod words;

pub use deal::{ChampionStatus, DealType, Stage};
pub use domain_name::{DomainError, DomainName};
pub use memory::{MemoryAddressError, MemoryKey, MemoryScope, TeamId};
pub use receipt::{Claim, Receipt, ReceiptError};
pub use role::Role;
pub use signal::SignalKind;
pub use slug::{Slug, SlugError};
pub use tenant::{Tenant, TenantError};
pub use ticker::{Ticker, TickerError};
pub use values::{CalendarDate, DateError, Percent, PercentError, rfc3339_ms};
pub use words::search_words;
