//! Newtypes and rules that parse input once at the edge: receipts, signal kinds, slugs.
//! Imports nothing of ours; knows nothing of HTTP or storage.

mod receipt;
mod signal;
mod slug;

pub use receipt::{Claim, Receipt, ReceiptError};
pub use signal::SignalKind;
pub use slug::{Slug, SlugError};
