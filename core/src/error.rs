//! The one error type of estatekit.
//!
//! Variants say *where* a call failed: before sending (`InvalidInput`), on the way
//! (`Network`, `Timeout`, `Aborted`), at the service (`Status`, `Graphql`, `Redirected`) or while
//! reading its answer (`Decode`). The browser layer turns an [`Error`] into a JavaScript
//! `ApiError` carrying [`ApiErrorInfo`].
//!
//! No variant ever holds the bearer token: requests are described without it, and what an error
//! quotes of an answer (the service's `code` and `message`, GraphQL messages, decode reasons,
//! excerpts) goes through [`Error::redacted`] (see `web::answer`). Answers themselves are
//! returned exactly as sent: redaction applies to what estatekit writes about a call.

use serde::{Deserialize, Serialize};
use tsify::Tsify;
use wasm_bindgen::JsValue;

/// What went wrong, in `ApiError.kind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Tsify)]
#[serde(rename_all = "snake_case")]
pub enum ApiErrorKind {
    /// The call was rejected before anything was sent; the message names the field.
    InvalidInput,
    /// HTTP 401.
    Unauthorized,
    /// HTTP 403.
    Forbidden,
    /// HTTP 404.
    NotFound,
    /// HTTP 429.
    RateLimited,
    /// Any other non-2xx status, and redirects (never followed).
    Http,
    /// The GraphQL answer carried `errors`.
    Graphql,
    /// The request never got an HTTP answer.
    Network,
    /// The call took longer than its timeout and was aborted.
    Timeout,
    /// The caller aborted the call through its `AbortSignal`.
    Aborted,
    /// A 2xx answer whose body is not what the interface describes.
    Decode,
    /// The client was freed (`free()`, or the end of a `using` block) before this call: a
    /// mistake in the app's code, not the user's; the message says what to do.
    Freed,
    /// A function the caller gave estatekit (its `fetch` option) threw an error of the program
    /// itself (`RangeError`, `ReferenceError`, `SyntaxError`, ...): a bug in that function, not a
    /// network failure. Never retried; `cause` is what it threw.
    CallerError,
}

/// Everything that can go wrong in a call; `Display` is the message JavaScript sees.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Error {
    /// The caller's input was rejected before sending; `field` names the offending input.
    #[error("invalid {field}: {reason}")]
    InvalidInput {
        /// Path of the offending input, e.g. `filter.candidateId` or `options.baseUrl`.
        field: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The service answered with a non-2xx status.
    #[error(
        "{operation} failed: {}{}{}",
        status_text(operation, *.status, .code),
        service_detail(.code, .message),
        grant_advice(operation, .code)
    )]
    Status {
        /// What the call was doing, e.g. `list webhooks`.
        operation: &'static str,
        /// The HTTP status.
        status: u16,
        /// The service's `code` field, when the body had one.
        code: Option<String>,
        /// The service's `message` field, when the body had one.
        message: Option<String>,
        /// How long the service asked us to wait (429/503), in milliseconds.
        retry_after_ms: Option<u64>,
    },
    /// The GraphQL answer carried an `errors` array.
    #[error("{operation} failed: the service returned GraphQL errors: {}", .messages.join("; "))]
    Graphql {
        /// What the call was doing.
        operation: &'static str,
        /// The `message` of each error (at most five).
        messages: Vec<String>,
        /// HTTP status of the answer (usually 200).
        status: u16,
    },
    /// The service answered with a redirect, which API calls never follow (the token must not
    /// reach another address).
    #[error(
        "{operation} failed: the service answered with a redirect, which is not followed so that \
         the token never reaches another address"
    )]
    Redirected {
        /// What the call was doing.
        operation: &'static str,
    },
    /// No HTTP answer: connection refused, DNS failure, CORS refusal, dropped connection.
    #[error("{operation} failed: network error reaching {host} ({reason})")]
    Network {
        /// What the call was doing.
        operation: &'static str,
        /// The host (and port) the request was sent to.
        host: String,
        /// What the browser reported.
        reason: String,
    },
    /// The caller's own `fetch` threw an error of the program (see
    /// [`ApiErrorKind::CallerError`]).
    #[error(
        "{operation} failed: the `fetch` option threw {reason}: a bug in that function (not a \
         network failure), so the request was not retried"
    )]
    CallerFetch {
        /// What the call was doing.
        operation: &'static str,
        /// What it threw (`RangeError: ...`).
        reason: String,
    },
    /// The call exceeded its timeout and was aborted.
    #[error("{operation} timed out after {timeout_ms} ms")]
    Timeout {
        /// What the call was doing.
        operation: &'static str,
        /// The timeout that expired.
        timeout_ms: u32,
    },
    /// The caller aborted the call.
    #[error("{operation} was aborted by the caller")]
    Aborted {
        /// What the call was doing.
        operation: &'static str,
    },
    /// A 2xx answer whose body does not match the interface.
    #[error("{operation} failed: unexpected response from the service (HTTP {status}): {reason}")]
    Decode {
        /// What the call was doing.
        operation: &'static str,
        /// HTTP status of the answer.
        status: u16,
        /// What did not match, with the JSON path where known.
        reason: String,
    },
}

/// Whether `operation` is a grant at the token endpoint (`password grant`, `refresh grant`,
/// `authorization code grant`): no access token was sent, credentials were.
#[cfg(any(test, feature = "auth"))]
fn is_grant(operation: &str) -> bool {
    operation.ends_with(" grant")
}

fn status_text(operation: &str, status: u16, code: &Option<String>) -> String {
    grant_text(operation, status, code).unwrap_or_else(|| call_status_text(status))
}

/// A refused grant's words, saying which credential was refused (only the server build, with
/// `estatekit/auth`, makes grants: the browser module does without these texts).
#[cfg(not(any(test, feature = "auth")))]
fn grant_text(_: &str, _: u16, _: &Option<String>) -> Option<String> {
    None
}

/// A refused grant's words, saying which credential was refused.
#[cfg(any(test, feature = "auth"))]
fn grant_text(operation: &str, status: u16, code: &Option<String>) -> Option<String> {
    if is_grant(operation) && (400..500).contains(&status) && status != 429 {
        let refused = match code.as_deref() {
            Some("invalid_client") => "the client id or secret was refused",
            Some("invalid_grant") if operation.starts_with("password") => {
                "the user name or password was refused"
            }
            Some("invalid_grant") if operation.starts_with("refresh") => {
                "the refresh token was refused"
            }
            Some("invalid_grant") => "the code or its redirect URI was refused",
            _ => "the grant was refused",
        };
        return Some(format!("{refused} (HTTP {status})"));
    }
    None
}

fn call_status_text(status: u16) -> String {
    match status {
        401 => "the token was rejected (HTTP 401 unauthorized)".into(),
        403 => "the token is not allowed to do this (HTTP 403 forbidden)".into(),
        404 => "not found (HTTP 404)".into(),
        429 => "too many requests (HTTP 429 rate limited)".into(),
        _ => format!("the service answered HTTP {status}"),
    }
}

/// What to do about a refused grant (none in the browser module, which makes no grants).
#[cfg(not(any(test, feature = "auth")))]
fn grant_advice(_: &str, _: &Option<String>) -> &'static str {
    ""
}

/// What to do about a refused grant, after the service's words: which setting to check.
#[cfg(any(test, feature = "auth"))]
fn grant_advice(operation: &str, code: &Option<String>) -> &'static str {
    if !is_grant(operation) {
        return "";
    }
    match code.as_deref() {
        Some("invalid_client") => ": check clientId and clientSecret",
        Some("invalid_grant") if operation.starts_with("password") => {
            ": check username and password"
        }
        Some("invalid_grant") if operation.starts_with("authorization") => ": sign in again",
        _ => "",
    }
}

fn service_detail(code: &Option<String>, message: &Option<String>) -> String {
    match (code, message) {
        (Some(c), Some(m)) => format!(" [{c}: {m}]"),
        (Some(one), None) | (None, Some(one)) => format!(" [{one}]"),
        (None, None) => String::new(),
    }
}

impl Error {
    /// Shorthand for an [`Error::InvalidInput`].
    pub fn invalid(field: impl Into<String>, reason: impl Into<String>) -> Self {
        Error::InvalidInput {
            field: field.into(),
            reason: reason.into(),
        }
    }

    /// The JavaScript-visible kind of this error.
    pub fn kind(&self) -> ApiErrorKind {
        match self {
            Error::InvalidInput { .. } => ApiErrorKind::InvalidInput,
            Error::Status { status, .. } => match status {
                401 => ApiErrorKind::Unauthorized,
                403 => ApiErrorKind::Forbidden,
                404 => ApiErrorKind::NotFound,
                429 => ApiErrorKind::RateLimited,
                _ => ApiErrorKind::Http,
            },
            Error::Graphql { .. } => ApiErrorKind::Graphql,
            Error::Redirected { .. } => ApiErrorKind::Http,
            Error::Network { .. } => ApiErrorKind::Network,
            Error::CallerFetch { .. } => ApiErrorKind::CallerError,
            Error::Timeout { .. } => ApiErrorKind::Timeout,
            Error::Aborted { .. } => ApiErrorKind::Aborted,
            Error::Decode { .. } => ApiErrorKind::Decode,
        }
    }

    /// The HTTP status, when the service answered (0 for a redirect: never followed, and a
    /// browser hides its status).
    pub fn status(&self) -> Option<u16> {
        match self {
            Error::Status { status, .. }
            | Error::Graphql { status, .. }
            | Error::Decode { status, .. } => Some(*status),
            Error::Redirected { .. } => Some(0),
            _ => None,
        }
    }

    /// The service's error `code`, when its body carried one.
    pub fn code(&self) -> Option<&str> {
        match self {
            Error::Status { code, .. } => code.as_deref(),
            _ => None,
        }
    }

    /// Whether a later identical call may succeed: no answer (network), a timeout, HTTP 429 or
    /// a 5xx. Never for other 4xx, redirects, decode errors, aborted calls or invalid input.
    pub fn retryable(&self) -> bool {
        match self {
            Error::Network { .. } | Error::Timeout { .. } => true,
            Error::Status { status, .. } | Error::Graphql { status, .. } => {
                *status == 429 || *status >= 500
            }
            _ => false,
        }
    }

    /// How long the service asked us to wait before trying again, in milliseconds.
    pub fn retry_after_ms(&self) -> Option<u64> {
        match self {
            Error::Status { retry_after_ms, .. } => *retry_after_ms,
            _ => None,
        }
    }

    /// The same error with `token` hidden in every text it took from an answer (a service echoing
    /// the token is the only way it could be there; a network failure's reason is hidden where
    /// the transport reads it).
    pub fn redacted(self, token: &str) -> Error {
        let hide = |text: String| redact(text, token);
        match self {
            Error::Status {
                operation,
                status,
                code,
                message,
                retry_after_ms,
            } => Error::Status {
                operation,
                status,
                code: code.map(hide),
                message: message.map(hide),
                retry_after_ms,
            },
            Error::Graphql {
                operation,
                messages,
                status,
            } => Error::Graphql {
                operation,
                messages: messages.into_iter().map(hide).collect(),
                status,
            },
            Error::Decode {
                operation,
                status,
                reason,
            } => Error::Decode {
                operation,
                status,
                reason: hide(reason),
            },
            other => other,
        }
    }
}

/// `s` cut to at most `max` characters (with an ellipsis when cut).
pub fn limit(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", s.get(..i).unwrap_or("")),
        None => s.to_owned(),
    }
}

/// What replaces the token in what estatekit writes about a call.
pub const REDACTED: &str = "[redacted]";

/// Whether `c` continues a word: an ASCII letter or digit, `_`, or a character beyond ASCII
/// other than Latin-1's punctuation (U+00A0 to U+00BF: a no-break space, `«`, `»`, ...), general
/// punctuation (U+2000 to U+206F: spaces, dashes, quotes, `…`) and the ideographic space (what a
/// secret standing as a token of a text is not next to). No Unicode table: it would cost the
/// browser module kilobytes.
fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric()
        || c == '_'
        || !c.is_ascii() && !matches!(c, '\u{a0}'..='\u{bf}' | '\u{2000}'..='\u{206f}' | '\u{3000}')
}

/// Whether `token` stands alone at `at..at + token.len()` of `text`: no word character glued to
/// it on a side where the token itself begins or ends with one. So `client` is hidden in
/// `client: x` and `"client"`, never inside `invalid_client`.
fn stands_alone(text: &str, at: usize, token: &str) -> bool {
    let before = text.get(..at).and_then(|t| t.chars().next_back());
    let after = text.get(at + token.len()..).and_then(|t| t.chars().next());
    let glued = |edge: Option<char>, next: Option<char>| {
        edge.is_some_and(is_word) && next.is_some_and(is_word)
    };
    !glued(token.chars().next(), before) && !glued(token.chars().next_back(), after)
}

/// The length from which a secret is hidden wherever it occurs, also inside a longer word: no
/// word a service writes is a secret this long by chance (a JWT, an issued refresh token).
pub const ALWAYS_HIDDEN_LENGTH: usize = 16;

/// `text` with every occurrence of `token` that stands as a token of its own (not inside
/// another word: [`stands_alone`]; every occurrence from [`ALWAYS_HIDDEN_LENGTH`] characters on)
/// replaced by [`REDACTED`], and so is the start of the token where a text was cut short within
/// it ([`limit`] ends a cut with `…`). A short secret that is also a word the service writes
/// (`client`, `token`) leaves those words as written.
pub fn redact(text: String, token: &str) -> String {
    if token.is_empty() || !text.contains(token) && !text.contains('…') {
        return text;
    }
    // A secret this long is no word of a text: every occurrence is hidden, glued to others or not.
    let anywhere = token.len() >= ALWAYS_HIDDEN_LENGTH;
    let mut text = hide_alone(text, token, token.len(), anywhere);
    // A start of the token right before a cut's `…`, the longest first.
    for start in (1..token.len()).rev().filter_map(|k| token.get(..k)) {
        let mut cut = start.to_owned();
        cut.push('…');
        if text.contains(cut.as_str()) {
            text = hide_alone(text, &cut, start.len(), anywhere);
        }
    }
    text
}

/// `text` with the first `hidden` bytes of each occurrence of `needle` replaced by
/// [`REDACTED`], where those bytes stand alone ([`stands_alone`]) or, `anywhere`, everywhere.
fn hide_alone(text: String, needle: &str, hidden: usize, anywhere: bool) -> String {
    let secret = needle.get(..hidden).unwrap_or(needle);
    let mut out = String::new();
    let mut rest = 0;
    for (at, _) in text.match_indices(needle) {
        if anywhere || stands_alone(&text, at, secret) {
            out.push_str(text.get(rest..at).unwrap_or(""));
            out.push_str(REDACTED);
            rest = at + hidden;
        }
    }
    if rest == 0 {
        return text;
    }
    out.push_str(text.get(rest..).unwrap_or(""));
    out
}

/// What an `ApiError` carries besides `name` and `message` (set on a real JavaScript `Error`,
/// so it has a stack).
#[derive(Clone, Debug, Serialize, Deserialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct ApiErrorInfo {
    /// What went wrong.
    pub kind: ApiErrorKind,
    /// HTTP status, when the service answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    pub status: Option<u16>,
    /// The service's error `code`, when its body had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    pub code: Option<String>,
    /// The parsed error body, the GraphQL `errors`, or a text excerpt.
    #[serde(
        default,
        with = "serde_wasm_bindgen::preserve",
        skip_serializing_if = "JsValue::is_undefined"
    )]
    #[tsify(optional, type = "unknown")]
    pub details: JsValue,
    /// Partial GraphQL `data` that came with `errors`.
    #[serde(
        default,
        with = "serde_wasm_bindgen::preserve",
        skip_serializing_if = "JsValue::is_undefined"
    )]
    #[tsify(optional, type = "unknown")]
    pub data: JsValue,
    /// How long the service asked to wait before trying again (kind `rate_limited`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    pub retry_after_ms: Option<f64>,
    /// How many requests the call made.
    pub attempts: u32,
    /// Whether a later identical call may succeed (network, timeout, 429, 5xx), and is safe to
    /// make: never where a request that is not idempotent (a registration, an upload) may have
    /// reached the service. When `attempts` is over 1, estatekit already retried it.
    pub retryable: bool,
    /// The answer's `X-Request-Id` (for a support ticket), when the failure came with an answer
    /// that had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    pub request_id: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(status: u16, code: Option<&str>) -> Error {
        Error::Status {
            operation: "list webhooks",
            status,
            code: code.map(Into::into),
            message: None,
            retry_after_ms: None,
        }
    }

    #[test]
    fn kinds_follow_status() {
        assert_eq!(status(401, None).kind(), ApiErrorKind::Unauthorized);
        assert_eq!(status(403, None).kind(), ApiErrorKind::Forbidden);
        assert_eq!(status(404, None).kind(), ApiErrorKind::NotFound);
        assert_eq!(status(429, None).kind(), ApiErrorKind::RateLimited);
        assert_eq!(status(500, None).kind(), ApiErrorKind::Http);
        assert_eq!(status(302, None).kind(), ApiErrorKind::Http);
        assert_eq!(status(500, None).status(), Some(500));
    }

    #[test]
    fn retryable_where_a_later_identical_call_may_succeed() {
        for code in [429, 500, 502, 503, 504] {
            assert!(status(code, None).retryable(), "{code}");
        }
        for code in [400, 401, 403, 404, 409, 413, 422, 302] {
            assert!(!status(code, None).retryable(), "{code}");
        }
        let operation = "list webhooks";
        let network = Error::Network {
            operation,
            host: "acme.example.com".into(),
            reason: "refused".into(),
        };
        assert_eq!(
            network.to_string(),
            "list webhooks failed: network error reaching acme.example.com (refused)"
        );
        let caller = Error::CallerFetch {
            operation,
            reason: "RangeError: x".into(),
        };
        assert!(!caller.retryable());
        assert_eq!(caller.kind(), ApiErrorKind::CallerError);
        assert!(network.retryable());
        let timeout = Error::Timeout {
            operation,
            timeout_ms: 10,
        };
        assert!(timeout.retryable());
        assert!(!Error::Aborted { operation }.retryable());
        assert!(!Error::Redirected { operation }.retryable());
        assert!(!Error::invalid("options.baseUrl", "must not be empty").retryable());
        let decode = Error::Decode {
            operation,
            status: 200,
            reason: "x".into(),
        };
        assert!(!decode.retryable());
        let graphql = |status| Error::Graphql {
            operation,
            messages: vec![],
            status,
        };
        assert!(!graphql(200).retryable());
        assert!(graphql(503).retryable());
    }

    #[test]
    fn messages_are_clear() {
        assert_eq!(
            status(403, Some("server_error")).to_string(),
            "list webhooks failed: the token is not allowed to do this (HTTP 403 forbidden) [server_error]"
        );
        assert_eq!(
            status(502, None).to_string(),
            "list webhooks failed: the service answered HTTP 502"
        );
        assert_eq!(
            Error::invalid(
                "filter",
                "give at least one of candidateId, contactId, listingId"
            )
            .to_string(),
            "invalid filter: give at least one of candidateId, contactId, listingId"
        );
        let kind = serde_json::to_value(ApiErrorKind::RateLimited).unwrap();
        assert_eq!(kind, "rate_limited");
    }

    #[test]
    fn redaction_hides_the_token_in_what_came_from_the_answer_only() {
        let error = Error::Status {
            operation: "list webhooks",
            status: 403,
            code: Some("tok-t".into()),
            message: Some("bad key tok".into()),
            retry_after_ms: None,
        }
        .redacted("tok");
        assert_eq!(
            error.to_string(),
            "list webhooks failed: the token is not allowed to do this (HTTP 403 forbidden) [[redacted]-t: bad key [redacted]]"
        );
        let decode = Error::Decode {
            operation: "get document",
            status: 200,
            reason: "invalid type at `t`".into(),
        }
        .redacted("t");
        // The operation's own words are not the answer's: only the reason is searched, and a
        // secret is hidden where it stands alone, not inside a word.
        assert_eq!(
            decode.to_string(),
            "get document failed: unexpected response from the service (HTTP 200): invalid type at `[redacted]`"
        );
        let graphql = Error::Graphql {
            operation: "messages",
            messages: vec!["a secret".into()],
            status: 200,
        }
        .redacted("secret");
        assert_eq!(
            graphql.to_string(),
            "messages failed: the service returned GraphQL errors: a [redacted]"
        );
        assert_eq!(redact("abc".into(), ""), "abc");
        // A text cut within the token keeps no part of it.
        let token = "eyJhbGciOiJSUzI1NiJ9.SECRET";
        // (as `limit(&format!("body: {token}"), 20)` cuts it)
        let cut = "body: eyJhbGciOiJSUz…".to_owned();
        assert_eq!(redact(cut, token), "body: [redacted]…");
        assert_eq!(
            redact("\"x eyJ…\" and eyJ".into(), token),
            "\"x [redacted]…\" and eyJ"
        );
    }

    #[test]
    fn a_refused_grant_names_the_credential_and_what_to_check() {
        let grant = |operation, status, code: &str| Error::Status {
            operation,
            status,
            code: Some(code.into()),
            message: Some("refused".into()),
            retry_after_ms: None,
        };
        assert_eq!(
            grant("password grant", 401, "invalid_client").to_string(),
            "password grant failed: the client id or secret was refused (HTTP 401) [invalid_client: refused]: check clientId and clientSecret"
        );
        assert_eq!(
            grant("password grant", 403, "invalid_grant").to_string(),
            "password grant failed: the user name or password was refused (HTTP 403) [invalid_grant: refused]: check username and password"
        );
        assert_eq!(
            grant("refresh grant", 400, "invalid_grant").to_string(),
            "refresh grant failed: the refresh token was refused (HTTP 400) [invalid_grant: refused]"
        );
        assert_eq!(
            grant("authorization code grant", 400, "invalid_grant").to_string(),
            "authorization code grant failed: the code or its redirect URI was refused (HTTP 400) [invalid_grant: refused]: sign in again"
        );
        assert_eq!(
            grant("refresh grant", 400, "invalid_scope").to_string(),
            "refresh grant failed: the grant was refused (HTTP 400) [invalid_scope: refused]"
        );
        // Not a refusal of the credentials: the status's own words; no token is mentioned.
        assert_eq!(
            grant("password grant", 503, "server_error").to_string(),
            "password grant failed: the service answered HTTP 503 [server_error: refused]"
        );
        // Calls with a token keep their words.
        assert!(grant("list webhooks", 401, "invalid_client")
            .to_string()
            .starts_with("list webhooks failed: the token was rejected (HTTP 401 unauthorized)"));
    }

    #[test]
    fn redaction_never_garbles_a_word_that_holds_the_secret() {
        // The secret `client` (a word the service writes too): hidden where it stands alone only.
        let text = "invalid_client: client authentication failed for client; clients: `client`";
        assert_eq!(
            redact(text.into(), "client"),
            "invalid_client: [redacted] authentication failed for [redacted]; clients: `[redacted]`"
        );
        // Short secrets: one letter, one digit, two letters.
        assert_eq!(
            redact("a b a-c ab a".into(), "a"),
            "[redacted] b [redacted]-c ab [redacted]"
        );
        assert_eq!(
            redact("1 12 x1 (1)".into(), "1"),
            "[redacted] 12 x1 ([redacted])"
        );
        assert_eq!(
            redact("token tokens to".into(), "to"),
            "token tokens [redacted]"
        );
        // Next to punctuation, quotes, `=`, `:` and the ends of the text: hidden.
        for (text, expected) in [
            ("s3cr3t", "[redacted]"),
            ("\"s3cr3t\"", "\"[redacted]\""),
            ("key=s3cr3t&x=1", "key=[redacted]&x=1"),
            ("Bearer s3cr3t.", "Bearer [redacted]."),
            ("s3cr3t-s3cr3t", "[redacted]-[redacted]"),
            ("ends:s3cr3t", "ends:[redacted]"),
        ] {
            assert_eq!(redact(text.into(), "s3cr3t"), expected, "{text}");
        }
        // Inside a longer word: kept as written.
        for text in ["xs3cr3t", "s3cr3tx", "_s3cr3t_", "s3cr3t9"] {
            assert_eq!(redact(text.into(), "s3cr3t"), text, "{text}");
        }
        // From 16 characters on, hidden also inside a word (no word is such a secret by chance).
        let long = "abcdefghijklmnop";
        assert_eq!(
            redact(format!("x{long}y {long}"), long),
            "x[redacted]y [redacted]"
        );
        assert_eq!(redact("xxabcdefgh…".into(), long), "xx[redacted]…");
        // A secret that begins or ends with punctuation has no word to be glued to there.
        assert_eq!(redact("x.tok.y".into(), ".tok."), "x[redacted]y");
        // Non-ASCII neighbours are letters too, but for punctuation and spaces.
        assert_eq!(
            redact("ék é k «k» “k”".into(), "k"),
            "ék é [redacted] «[redacted]» “[redacted]”"
        );
        // The start of the secret before a cut's `…`: hidden when it stands alone only.
        assert_eq!(
            redact("a cli… x_cli…".into(), "client"),
            "a [redacted]… x_cli…"
        );
        // The error of a grant, with the client secret `client`: the service's code unchanged.
        let error = Error::Status {
            operation: "password grant",
            status: 401,
            code: Some("invalid_client".into()),
            message: Some("client authentication failed".into()),
            retry_after_ms: None,
        }
        .redacted("client");
        assert_eq!(error.code(), Some("invalid_client"));
        assert!(
            error
                .to_string()
                .contains("[invalid_client: [redacted] authentication failed]"),
            "{error}"
        );
    }
}
