//! The console's `/app/memory` page over HTTP (issue 24).
