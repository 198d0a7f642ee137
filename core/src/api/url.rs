//! Base URL and webhook URL rules (on top of the platform's URL parser), path segments and
//! query strings (percent-encoded with the `percent-encoding` crate).

use super::platform::{parse_url, UrlParts};
use crate::error::Error;
use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use std::net::Ipv4Addr;

/// Every byte but RFC 3986's unreserved characters is encoded: an encoded string is exactly one
/// path segment or query component (`/`, `%`, `?`, `#`, `&`, `=` and spaces included).
const COMPONENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// A validated service base URL: absolute http(s), https unless the host is loopback, no
/// credentials, query or fragment; normalised by the URL standard and kept without trailing
/// slash.
///
/// The package's entries apply the same rule, in the same words, where the option is given
/// (`new Client`, the token provider, the sign-in providers: synchronously, before this module
/// is loaded): js/base_url.js, whose comment says why it is a copy, and
/// tests/node/base_url.test.mjs holds the two equal. Change both together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BaseUrl {
    text: String,
}

/// Refuses what the URL standard would silently drop or rewrite (tabs, line breaks, spaces).
fn check_visible(field: &str, input: &str) -> Result<(), Error> {
    if input.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(Error::invalid(
            field,
            "must not contain spaces or control characters",
        ));
    }
    Ok(())
}

/// The parts of an absolute http(s) URL with a host, or `None`.
fn http_parts(input: &str) -> Option<UrlParts> {
    parse_url(input)
        .filter(|u| (u.protocol == "https:" || u.protocol == "http:") && !u.hostname.is_empty())
}

/// Whether a (normalised) host name is a loopback name or address.
fn is_loopback(hostname: &str) -> bool {
    hostname == "localhost"
        || hostname.ends_with(".localhost")
        || hostname == "[::1]"
        || hostname
            .parse::<Ipv4Addr>()
            .is_ok_and(|ip| ip.is_loopback())
}

impl BaseUrl {
    /// Validates `input` (field name `options.baseUrl` in errors).
    pub fn parse(input: &str) -> Result<BaseUrl, Error> {
        const FIELD: &str = "options.baseUrl";
        let bad = |reason: &str| Error::invalid(FIELD, reason);
        if input.is_empty() {
            return Err(bad("must not be empty"));
        }
        check_visible(FIELD, input)?;
        let url = http_parts(input).ok_or_else(|| {
            bad("must be an absolute http(s) URL such as https://acme.example.com")
        })?;
        if input.contains(['?', '#']) {
            return Err(bad("must not contain a query (?) or fragment (#)"));
        }
        if !url.username.is_empty() || !url.password.is_empty() {
            return Err(bad("must not contain credentials (user:password@)"));
        }
        if url.protocol == "http:" && !is_loopback(&url.hostname) {
            return Err(bad(
                "must use https (plain http is only accepted for localhost and loopback addresses)",
            ));
        }
        let port = if url.port.is_empty() {
            String::new()
        } else {
            format!(":{}", url.port)
        };
        Ok(BaseUrl {
            text: format!(
                "{}//{}{port}{}",
                url.protocol,
                url.hostname,
                url.pathname.trim_end_matches('/')
            ),
        })
    }

    /// The normalised base URL, without trailing slash.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The origin (`scheme://host[:port]`), to which every request must stay.
    pub fn origin(&self) -> &str {
        let host_start = self.text.find("//").map_or(0, |i| i + 2);
        let end = self
            .text
            .get(host_start..)
            .and_then(|rest| rest.find('/'))
            .map_or(self.text.len(), |i| host_start + i);
        self.text.get(..end).unwrap_or(&self.text)
    }

    /// `base + path` (path starts with `/`) plus the query string, if any.
    pub fn join(&self, path: &str, query: &QueryString) -> String {
        if query.text.is_empty() {
            format!("{}{path}", self.text)
        } else {
            format!("{}{path}?{}", self.text, query.text)
        }
    }
}

/// Validates an absolute http(s) URL given by the caller (a webhook's `url`).
pub fn check_http_url(field: &str, input: &str) -> Result<(), Error> {
    check_visible(field, input)?;
    if http_parts(input).is_none() {
        return Err(Error::invalid(
            field,
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

/// `s` percent-encoded as exactly one path segment or query component.
pub fn encode_component(s: &str) -> String {
    utf8_percent_encode(s, COMPONENT).to_string()
}

/// A query string, built in order, every key and value percent-encoded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct QueryString {
    text: String,
}

impl QueryString {
    /// Appends `key=value`.
    pub fn push(&mut self, key: &str, value: &str) {
        if !self.text.is_empty() {
            self.text.push('&');
        }
        self.text.push_str(&encode_component(key));
        self.text.push('=');
        self.text.push_str(&encode_component(value));
    }

    /// Appends `key=value` when there is a value.
    pub fn push_opt(&mut self, key: &str, value: Option<impl ToString>) {
        if let Some(v) = value {
            self.push(key, &v.to_string());
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
        assert_eq!(ok("http://127.1:8787"), "http://127.0.0.1:8787");
        assert_eq!(ok("http://localhost:3000/"), "http://localhost:3000");
        assert_eq!(ok("http://[::1]:9000"), "http://[::1]:9000");
        assert_eq!(
            ok("https://acme.example.com:443/"),
            "https://acme.example.com"
        );
        assert_eq!(ok("http://localhost:80"), "http://localhost");
        assert_eq!(ok("http://localhost:443"), "http://localhost:443");
        assert_eq!(
            ok("https://bücher.example"),
            "https://xn--bcher-kva.example"
        );
        let base = BaseUrl::parse("https://acme.example.com:8443/base").unwrap();
        assert_eq!(base.origin(), "https://acme.example.com:8443");
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
        ] {
            let e = BaseUrl::parse(bad).expect_err(bad);
            assert_eq!(e.kind(), crate::error::ApiErrorKind::InvalidInput);
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
        q.push_opt("skip", None::<u32>);
        q.push_opt("take", Some(5));
        assert_eq!(q.as_str(), "types=PRE-MOVE_IN&title=a%26b%20c&take=5");
        let base = BaseUrl::parse("https://x.example.com/").unwrap();
        assert_eq!(
            base.join("/p", &q),
            "https://x.example.com/p?types=PRE-MOVE_IN&title=a%26b%20c&take=5"
        );
        assert_eq!(
            base.join("/p", &QueryString::default()),
            "https://x.example.com/p"
        );
    }
}
