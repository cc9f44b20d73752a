//! `DomainName`: a company's registrable domain, parsed from whatever a user pastes — a URL
//! with scheme, userinfo, port, path or query, `www.`, a trailing dot, any case, or an IDN —
//! and reduced to the registrable domain with the public-suffix list (`investor.apple.com` ->
//! `apple.com`, `foo.co.uk` stays whole).

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a domain name: {0}")]
pub struct DomainError(pub String);

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DomainName(String);

impl DomainName {
    pub fn parse(input: &str) -> Result<Self, DomainError> {
        let bad = || DomainError(input.chars().take(100).collect());
        let mut s = input.trim();
        if let Some(i) = s.find("://") {
            s = &s[i + 3..];
        } else if let Some(rest) = s.strip_prefix("//") {
            s = rest;
        }
        let end = s.find(['/', '?', '#']).unwrap_or(s.len());
        s = &s[..end];
        if let Some(i) = s.rfind('@') {
            s = &s[i + 1..];
        }
        if s.starts_with('[') {
            return Err(bad()); // IP literals are not company domains
        }
        if let Some(i) = s.rfind(':') {
            s = &s[..i];
        }
        let s = s.trim_end_matches('.');
        if s.is_empty() || s.len() > 253 {
            return Err(bad());
        }
        let ascii = idna::domain_to_ascii(s).map_err(|_| bad())?;
        // `www.` goes first, unless what is left is no domain (`www.om` is itself registrable):
        // so the result always parses back to itself.
        let registrable = ascii.strip_prefix("www.").and_then(registrable).or_else(|| registrable(&ascii));
        Ok(Self(registrable.ok_or_else(bad)?.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The registrable domain of an ASCII host name, if it is one (labels, not all digits).
fn registrable(host: &str) -> Option<&str> {
    let labels_ok = host.split('.').all(|l| {
        !l.is_empty()
            && l.len() <= 63
            && !l.starts_with('-')
            && !l.ends_with('-')
            && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
    });
    if !labels_ok || !host.contains('.') || host.split('.').all(|l| l.bytes().all(|b| b.is_ascii_digit())) {
        return None;
    }
    let all_digits = |name: &str| name.split('.').all(|l| l.bytes().all(|b| b.is_ascii_digit()));
    gtms_suffix::registrable_domain(host).filter(|r| !all_digits(r))
}

impl fmt::Display for DomainName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pasted_inputs_normalise_to_the_registrable_domain() {
        let cases = [
            ("apple.com", "apple.com"),
            ("APPLE.COM", "apple.com"),
            ("https://www.apple.com/iphone?x=1#top", "apple.com"),
            ("http://user:pw@www.Apple.com:8443/", "apple.com"),
            ("apple.com.", "apple.com"),
            ("investor.apple.com", "apple.com"),
            ("//www.microsoft.com", "microsoft.com"),
            ("foo.co.uk", "foo.co.uk"),
            ("shop.foo.co.uk", "foo.co.uk"),
            ("bücher.de", "xn--bcher-kva.de"),
            ("www.xn--bcher-kva.de", "xn--bcher-kva.de"),
        ];
        for (input, want) in cases {
            assert_eq!(DomainName::parse(input).map(|d| d.0), Ok(want.to_owned()), "{input}");
        }
    }

    /// Found by the `domain` fuzz target: `lp.www.om` reduced to `www.om` and `w.a.5.0` to `5.0`,
    /// neither of which parsed.
    #[test]
    fn every_result_parses_back_to_itself() {
        for input in ["Lp.www.om", "www.om", "www.example", "a.www.co.uk", "www.apple.com", "ht_ps://W.A.5.0"] {
            let Ok(first) = DomainName::parse(input) else { continue };
            assert_eq!(DomainName::parse(first.as_str()), Ok(first.clone()), "{input} -> {first}");
        }
        assert_eq!(DomainName::parse("Lp.www.om").map(|d| d.0), Ok("www.om".to_owned()));
        assert!(DomainName::parse("w.a.5.0").is_err(), "an all-digit registrable part is no company domain");
    }

    #[test]
    fn non_domains_are_refused() {
        for bad in
            ["", "localhost", "com", "co.uk", "127.0.0.1", "[::1]", "a..b.com", "-a.com", "exa mple.com", "http://"]
        {
            assert!(DomainName::parse(bad).is_err(), "{bad}");
        }
    }
}
