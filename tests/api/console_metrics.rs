//! The console's `/app/metrics` page over HTTP (issue 24).
