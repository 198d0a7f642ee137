//! What the pure request/response code borrows from the platform: the WHATWG URL parser, the
//! HTTP-date parser and the number parser. In the WebAssembly modules they are the browser's own
//! (`URL`, `Date.parse`, `Number`: hence the `js` feature on wasm32); natively, where the unit and
//! property tests run, the `url` and `httpdate` crates and Rust's `f64` parser, which read the
//! same texts the same way. In the modules also the package's base URL rule, written once in
//! JavaScript (natively there is none: the tests give base URLs normalised).

#[cfg(all(target_arch = "wasm32", not(feature = "js")))]
compile_error!(
    "estatekit-core on wasm32 parses URLs, dates and numbers with the browser's own parsers: \
     enable its `js` feature (estatekit-web does)"
);

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

/// The package's base URL rule, js/base_url.js's `baseUrlRule` (what the entries apply where the
/// option is given, written once there): the normalised base URL, or why it is refused. Only in
/// the module: natively there is no JavaScript (the tests give normalised base URLs).
#[cfg(target_arch = "wasm32")]
pub fn base_url_rule(input: &str) -> Result<String, String> {
    let verdict = js_rule::base_url_rule(input);
    let text = |key: &str| {
        js_sys::Reflect::get(&verdict, &wasm_bindgen::JsValue::from_str(key))
            .ok()
            .and_then(|value| value.as_string())
    };
    text("url").ok_or_else(|| text("reason").unwrap_or_default())
}

/// The binding of js/base_url.js (wasm-bindgen copies the file beside the glue).
#[cfg(target_arch = "wasm32")]
mod js_rule {
    use wasm_bindgen::prelude::*;

    #[wasm_bindgen(module = "/../js/base_url.js")]
    extern "C" {
        /// `baseUrlRule(value)`: `{ url }` or `{ reason }`.
        #[wasm_bindgen(js_name = baseUrlRule)]
        pub fn base_url_rule(value: &str) -> JsValue;
    }
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

/// Whether `value` is written like a decimal number (`12`, `1.5`, `-3`, `1e3`): the only texts
/// [`decimal`] reads, and the ones on which the browser's `Number` and Rust's `f64` parser agree
/// (`Number` would also read `""`, `0x1f` and `Infinity`).
fn decimal_like(value: &str) -> bool {
    value.bytes().any(|b| b.is_ascii_digit())
        && value
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'))
}

/// The number a header writes in decimal (`12`, `1.5`), if it is one.
#[cfg(target_arch = "wasm32")]
pub fn decimal(value: &str) -> Option<f64> {
    use wasm_bindgen::JsValue;
    // `+value` in JavaScript: the browser's own number parser (no float parser in the module).
    decimal_like(value)
        .then(|| JsValue::from_str(value).unchecked_into_f64())
        .filter(|n| !n.is_nan())
}

/// The number a header writes in decimal (`12`, `1.5`), if it is one.
#[cfg(not(target_arch = "wasm32"))]
pub fn decimal(value: &str) -> Option<f64> {
    value.parse().ok().filter(|_| decimal_like(value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_are_read_as_the_browser_reads_them() {
        for (text, want) in [
            ("12", Some(12.0)),
            ("1.5", Some(1.5)),
            ("-3", Some(-3.0)),
            ("1e3", Some(1000.0)),
            ("5.", Some(5.0)),
            (".5", Some(0.5)),
            ("", None),
            ("0x1f", None),
            ("Infinity", None),
            ("inf", None),
            ("NaN", None),
            ("1.2.3", None),
            ("1_000", None),
            ("e5", None),
            (" 7", None),
        ] {
            assert_eq!(decimal(text), want, "{text:?}");
        }
    }
}
