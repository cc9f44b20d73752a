//! The console's `/app/workers` page over HTTP (issue 24).
