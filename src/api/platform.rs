//! What the pure request/response code borrows from the platform: the WHATWG URL parser and the
//! HTTP-date parser. In the browser they are the browser's own (`URL`, `Date.parse`); natively,
//! where the unit and property tests run, the `url` and `httpdate` crates, which implement the
//! same standards.

/// The parts of an absolute URL, as the URL standard parses and normalises them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UrlParts {
    /// `https:`
    pub protocol: String,
    /// The user name before `@`, if any.
    pub username: String,
    /// The password before `@`, if any.
    pub password: String,
    /// Lower-cased host name (IPv6 in brackets), without the port.
    pub hostname: String,
    /// The port when it is not the scheme's default, else empty.
    pub port: String,
    /// The path, at least `/` for http(s).
    pub pathname: String,
}

/// Parses an absolute URL; `None` when it is not one.
#[cfg(target_arch = "wasm32")]
pub fn parse_url(input: &str) -> Option<UrlParts> {
    let url = web_sys::Url::new(input).ok()?;
    Some(UrlParts {
        protocol: url.protocol(),
        username: url.username(),
        password: url.password(),
        hostname: url.hostname(),
        port: url.port(),
        pathname: url.pathname(),
    })
}

/// Parses an absolute URL; `None` when it is not one.
#[cfg(not(target_arch = "wasm32"))]
pub fn parse_url(input: &str) -> Option<UrlParts> {
    let url = url::Url::parse(input).ok()?;
    Some(UrlParts {
        protocol: format!("{}:", url.scheme()),
        username: url.username().to_owned(),
        password: url.password().unwrap_or_default().to_owned(),
        hostname: url.host_str().unwrap_or_default().to_owned(),
        port: url.port().map(|p| p.to_string()).unwrap_or_default(),
        pathname: url.path().to_owned(),
    })
}

/// Milliseconds since 1970 of an HTTP date (`Sun, 06 Nov 1994 08:49:37 GMT`), if it is one.
#[cfg(target_arch = "wasm32")]
pub fn http_date_ms(value: &str) -> Option<f64> {
    Some(js_sys::Date::parse(value)).filter(|ms| ms.is_finite())
}

/// Milliseconds since 1970 of an HTTP date (`Sun, 06 Nov 1994 08:49:37 GMT`), if it is one.
#[cfg(not(target_arch = "wasm32"))]
pub fn http_date_ms(value: &str) -> Option<f64> {
    let at = httpdate::parse_http_date(value).ok()?;
    let since = at.duration_since(std::time::UNIX_EPOCH).ok()?;
    Some(since.as_millis() as f64)
}
