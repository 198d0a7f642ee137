//! Base URL validation, path-segment encoding and query strings.

use crate::error::Error;
use crate::text::concat;

/// A validated service base URL: absolute http(s), https unless the host is loopback, no
/// credentials, query or fragment; kept without trailing slash.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BaseUrl {
    text: String,
}

impl BaseUrl {
    /// Validates `input` (field name `options.baseUrl` in errors).
    pub fn parse(input: &str) -> Result<BaseUrl, Error> {
        let bad = |reason: &str| Error::invalid("options.baseUrl", reason);
        if input.is_empty() {
            return Err(bad("must not be empty"));
        }
        if input.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(bad("must not contain spaces or control characters"));
        }
        let lower = input.to_ascii_lowercase();
        let (scheme, rest) = if lower.starts_with("https://") {
            ("https", input.get(8..).unwrap_or(""))
        } else if lower.starts_with("http://") {
            ("http", input.get(7..).unwrap_or(""))
        } else {
            return Err(bad(
                "must be an absolute http(s) URL such as https://acme.example.com",
            ));
        };
        if rest.contains('?') || rest.contains('#') {
            return Err(bad("must not contain a query (?) or fragment (#)"));
        }
        let (authority, path) = match rest.find('/') {
            Some(i) => (rest.get(..i).unwrap_or(""), rest.get(i..).unwrap_or("")),
            None => (rest, ""),
        };
        if authority.contains('@') {
            return Err(bad("must not contain credentials (user:password@)"));
        }
        let host = host_of(authority).ok_or_else(|| bad("has no valid host"))?;
        if scheme == "http" && !is_loopback_host(&host) {
            return Err(bad(
                "must use https (plain http is only accepted for localhost and loopback addresses)",
            ));
        }
        if path.split('/').any(|s| s == "." || s == "..") {
            return Err(bad("must not contain . or .. path segments"));
        }
        let path = path.trim_end_matches('/');
        // Browsers drop default ports (XHR's responseURL compares against this origin).
        let authority = authority.to_ascii_lowercase();
        let default_port = if scheme == "https" { ":443" } else { ":80" };
        let authority = authority.strip_suffix(default_port).unwrap_or(&authority);
        Ok(BaseUrl {
            text: concat(&[scheme, "://", authority, path]),
        })
    }

    /// The normalised base URL, without trailing slash.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// `base + path` (path starts with `/`) plus the query string, if any.
    pub fn join(&self, path: &str, query: &QueryString) -> String {
        let mut url = String::with_capacity(self.text.len() + path.len() + query.text.len() + 1);
        url.push_str(&self.text);
        url.push_str(path);
        if !query.text.is_empty() {
            url.push('?');
            url.push_str(&query.text);
        }
        url
    }
}

/// The host of an authority (`host[:port]` or `[v6][:port]`), lower-cased, if valid.
fn host_of(authority: &str) -> Option<String> {
    let (host, port) = if let Some(rest) = authority.strip_prefix('[') {
        let end = rest.find(']')?;
        let host = rest.get(..end)?;
        let after = rest.get(end + 1..)?;
        let port = match after {
            "" => None,
            p => Some(p.strip_prefix(':')?),
        };
        if host.is_empty()
            || !host
                .chars()
                .all(|c| c.is_ascii_hexdigit() || c == ':' || c == '.')
        {
            return None;
        }
        (concat(&["[", &host.to_ascii_lowercase(), "]"]), port)
    } else {
        let (host, port) = match authority.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (authority, None),
        };
        let valid = !host.is_empty()
            && host.chars().all(|c| {
                c.is_ascii_alphanumeric() || !c.is_ascii() || matches!(c, '-' | '.' | '_')
            });
        if !valid {
            return None;
        }
        (host.to_ascii_lowercase(), port)
    };
    if let Some(p) = port {
        if !p.is_empty() && p.parse::<u16>().is_err() {
            return None;
        }
    }
    Some(host)
}

/// Whether `host` (as returned by `host_of`) is a loopback name or address.
fn is_loopback_host(host: &str) -> bool {
    if host == "localhost" || host.ends_with(".localhost") || host == "[::1]" {
        return true;
    }
    let mut parts = host.split('.');
    parts.next() == Some("127")
        && host.split('.').count() == 4
        && host.split('.').all(|p| p.parse::<u8>().is_ok())
}

/// Validates an absolute http(s) URL given by the caller (webhook `url`).
pub fn check_http_url(field: &str, input: &str) -> Result<(), Error> {
    let bad = |reason: &str| Error::invalid(field, reason);
    if input.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(bad("must not contain spaces or control characters"));
    }
    let lower = input.to_ascii_lowercase();
    let rest = if lower.starts_with("https://") {
        input.get(8..).unwrap_or("")
    } else if lower.starts_with("http://") {
        input.get(7..).unwrap_or("")
    } else {
        return Err(bad("must be an absolute http:// or https:// URL"));
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host_part = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    if host_of(host_part).is_none() {
        return Err(bad(
            "must be an absolute http:// or https:// URL with a valid host",
        ));
    }
    Ok(())
}

/// Checks a caller-given id that will become one path segment.
pub fn check_id(field: &str, id: &str) -> Result<(), Error> {
    if id.is_empty() {
        return Err(Error::invalid(field, "must not be empty"));
    }
    // Browsers resolve "." and ".." segments (even percent-encoded) before sending.
    if id == "." || id == ".." {
        return Err(Error::invalid(field, "must not be \".\" or \"..\""));
    }
    Ok(())
}

/// Percent-encodes `s` so that it is exactly one path segment or query component: every
/// byte outside the RFC 3986 unreserved set is encoded (including `/`, `%`, `?`, `#`).
pub fn encode_component(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(b));
        } else {
            out.push('%');
            for nibble in [b >> 4, b & 15] {
                let digit = char::from_digit(u32::from(nibble), 16).unwrap_or('0');
                out.push(digit.to_ascii_uppercase());
            }
        }
    }
    out
}

/// An `application/x-www-form-urlencoded`-compatible query string, built in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct QueryString {
    text: String,
}

impl QueryString {
    /// Appends `key=value` (both encoded).
    pub fn push(&mut self, key: &str, value: &str) {
        if !self.text.is_empty() {
            self.text.push('&');
        }
        self.text.push_str(&encode_component(key));
        self.text.push('=');
        self.text.push_str(&encode_component(value));
    }

    /// Appends `key=value` when `value` is `Some`.
    pub fn push_opt(&mut self, key: &str, value: Option<&str>) {
        if let Some(v) = value {
            self.push(key, v);
        }
    }

    /// The encoded text, without leading `?`.
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(s: &str) -> String {
        BaseUrl::parse(s)
            .map(|b| b.as_str().to_string())
            .unwrap_or_else(|e| format!("ERR {e}"))
    }

    #[test]
    fn accepts_https_and_loopback_http() {
        assert_eq!(ok("https://acme.example.com"), "https://acme.example.com");
        assert_eq!(ok("https://acme.example.com/"), "https://acme.example.com");
        assert_eq!(
            ok("HTTPS://Acme.Example.com:8443/base//"),
            "https://acme.example.com:8443/base"
        );
        assert_eq!(ok("http://127.0.0.1:8787"), "http://127.0.0.1:8787");
        assert_eq!(ok("http://localhost:3000/"), "http://localhost:3000");
        assert_eq!(ok("http://[::1]:9000"), "http://[::1]:9000");
        assert_eq!(
            ok("https://acme.example.com:443/"),
            "https://acme.example.com"
        );
        assert_eq!(ok("http://localhost:80"), "http://localhost");
        assert_eq!(ok("http://localhost:443"), "http://localhost:443");
    }

    #[test]
    fn rejects_bad_base_urls_naming_the_field() {
        for bad in [
            "",
            "acme.example.com",
            "ftp://acme.example.com",
            "http://acme.example.com",
            "http://127.0.0.1.evil.com",
            "https://user:pw@acme.example.com",
            "https://acme.example.com/?x=1",
            "https://acme.example.com/#frag",
            "https://",
            "https://acme.example.com:99999",
            "https://acme example.com",
            "https://acme.example.com/\n",
            "https://acme.example.com/a/../b",
        ] {
            let e = BaseUrl::parse(bad).expect_err(bad);
            assert_eq!(e.kind(), crate::error::ErrorKind::InvalidInput);
            assert!(e.to_string().starts_with("invalid options.baseUrl"), "{e}");
        }
    }

    #[test]
    fn encodes_one_segment() {
        assert_eq!(encode_component("../x"), "..%2Fx");
        assert_eq!(encode_component("a%2Fb"), "a%252Fb");
        assert_eq!(encode_component("q?x#y"), "q%3Fx%23y");
        assert_eq!(encode_component("ünï code"), "%C3%BCn%C3%AF%20code");
        assert_eq!(encode_component("AZaz09-._~"), "AZaz09-._~");
    }

    #[test]
    fn ids_are_checked() {
        assert!(check_id("documentId", "").is_err());
        assert!(check_id("documentId", "..").is_err());
        assert!(check_id("documentId", ".").is_err());
        assert!(check_id("documentId", "../x").is_ok());
    }

    #[test]
    fn webhook_urls_are_checked() {
        assert!(check_http_url("url", "https://hooks.example.com/x?y=1").is_ok());
        assert!(check_http_url("url", "http://127.0.0.1:9/hook").is_ok());
        for bad in [
            "",
            "hooks.example.com",
            "javascript:alert(1)",
            "https://",
            "https://a b",
            "ftp://x",
        ] {
            assert!(check_http_url("url", bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn builds_query_strings() {
        let mut q = QueryString::default();
        q.push("types", "PRE-MOVE_IN");
        q.push_opt("title", Some("a&b c"));
        q.push_opt("skip", None);
        assert_eq!(q.as_str(), "types=PRE-MOVE_IN&title=a%26b%20c");
        let base = BaseUrl::parse("https://x.example.com/").unwrap();
        assert_eq!(
            base.join("/p", &q),
            "https://x.example.com/p?types=PRE-MOVE_IN&title=a%26b%20c"
        );
        assert_eq!(
            base.join("/p", &QueryString::default()),
            "https://x.example.com/p"
        );
    }
}
