//! End-to-end tests: the real app (or the real binary) on a random loopback port, spoken to
//! over HTTP. One module per feature area.

mod binary;
mod envelope;
mod health;
mod helpers;
mod tls;
