//! The console's `/app/companies` page over HTTP (issue 24).
