//! Base URL and webhook URL rules (on top of the platform's URL parser), path segments and
//! query strings (percent-encoded with the `percent-encoding` crate).

use super::platform::{parse_url, UrlParts};
use crate::error::Error;
use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

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
/// The rule is written once, in JavaScript (js/base_url.js's `baseUrlRule`): the package's
/// entries apply it where the option is given (`new Client`, the token provider, the sign-in
/// providers: synchronously, before this module is loaded), and `BaseUrl::parse` calls it in
/// the module ([`platform::base_url_rule`](super::platform)). Natively (the unit and contract
/// tests), where there is no JavaScript, a base URL is given normalised ([`BaseUrl::normalised`]);
/// tests/node/base_url.test.mjs tries the rule through every entry and the module.
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

impl BaseUrl {
    /// Validates `input` by the package's base URL rule (js/base_url.js's `baseUrlRule`, the
    /// platform's: [`platform::base_url_rule`](super::platform)), field name `options.baseUrl` in
    /// errors; the base URL as the rule normalised it.
    #[cfg(target_arch = "wasm32")]
    pub fn parse(input: &str) -> Result<BaseUrl, Error> {
        match super::platform::base_url_rule(input) {
            Ok(text) => Ok(BaseUrl { text }),
            Err(reason) => Err(Error::invalid("options.baseUrl", reason)),
        }
    }

    /// A base URL given as the rule normalises it (`scheme://host[:port]/path`), a trailing
    /// slash dropped, not checked: for the tests, which run natively, where the rule (JavaScript)
    /// is not. Everything else takes `BaseUrl::parse` (in the module).
    pub fn normalised(text: &str) -> BaseUrl {
        BaseUrl {
            text: text.trim_end_matches('/').to_owned(),
        }
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

    #[test]
    fn origins_and_joins() {
        let base = BaseUrl::normalised("https://acme.example.com:8443/base/");
        assert_eq!(base.as_str(), "https://acme.example.com:8443/base");
        assert_eq!(base.origin(), "https://acme.example.com:8443");
        assert_eq!(
            BaseUrl::normalised("http://127.0.0.1:8787").origin(),
            "http://127.0.0.1:8787"
        );
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
        let base = BaseUrl::normalised("https://x.example.com/");
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
