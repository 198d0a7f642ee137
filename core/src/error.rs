//! The one error type of estatekit.
//!
//! Variants say *where* a call failed: before sending (`InvalidInput`), on the way
//! (`Network`, `Timeout`, `Aborted`), at the service (`Status`, `Graphql`, `Redirected`) or while
//! reading its answer (`Decode`). The browser layer turns an [`Error`] into a JavaScript
//! `ApiError` carrying `ApiErrorInfo` (with the `js` feature).
//!
//! No variant ever holds the bearer token: requests are described without it, and what an error
//! quotes of an answer (the service's `code` and `message`, GraphQL messages, decode reasons,
//! excerpts) goes through [`Error::redacted`] (see `web::answer`). Answers themselves are
//! returned exactly as sent: redaction applies to what estatekit writes about a call.

use serde::{Deserialize, Serialize};
#[cfg(feature = "js")]
use tsify::Tsify;
#[cfg(feature = "js")]
use wasm_bindgen::JsValue;

/// What went wrong, in `ApiError.kind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(Tsify))]
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
    /// The client's `getToken` threw or rejected with something that is neither an `ApiError`
    /// (whose kind is kept) nor a failed `fetch` (`network`): the token source failed, before
    /// anything was sent to the service. Not retried; `cause` is what it threw.
    TokenSource,
}

impl ApiErrorKind {
    /// Every kind, in declaration order.
    pub const ALL: [ApiErrorKind; 14] = [
        ApiErrorKind::InvalidInput,
        ApiErrorKind::Unauthorized,
        ApiErrorKind::Forbidden,
        ApiErrorKind::NotFound,
        ApiErrorKind::RateLimited,
        ApiErrorKind::Http,
        ApiErrorKind::Graphql,
        ApiErrorKind::Network,
        ApiErrorKind::Timeout,
        ApiErrorKind::Aborted,
        ApiErrorKind::Decode,
        ApiErrorKind::Freed,
        ApiErrorKind::CallerError,
        ApiErrorKind::TokenSource,
    ];

    /// The kind's name in `ApiError.kind`.
    pub const fn as_str(self) -> &'static str {
        match self {
            ApiErrorKind::InvalidInput => "invalid_input",
            ApiErrorKind::Unauthorized => "unauthorized",
            ApiErrorKind::Forbidden => "forbidden",
            ApiErrorKind::NotFound => "not_found",
            ApiErrorKind::RateLimited => "rate_limited",
            ApiErrorKind::Http => "http",
            ApiErrorKind::Graphql => "graphql",
            ApiErrorKind::Network => "network",
            ApiErrorKind::Timeout => "timeout",
            ApiErrorKind::Aborted => "aborted",
            ApiErrorKind::Decode => "decode",
            ApiErrorKind::Freed => "freed",
            ApiErrorKind::CallerError => "caller_error",
            ApiErrorKind::TokenSource => "token_source",
        }
    }

    /// The kind named `name` (what `ApiError.kind` holds), if there is one.
    pub fn from_name(name: &str) -> Option<ApiErrorKind> {
        ApiErrorKind::ALL.into_iter().find(|k| k.as_str() == name)
    }

    /// Whether an error of this kind always comes with an answer of the service (so `status` is
    /// set).
    pub const fn answered(self) -> bool {
        matches!(
            self,
            ApiErrorKind::Unauthorized
                | ApiErrorKind::Forbidden
                | ApiErrorKind::NotFound
                | ApiErrorKind::RateLimited
                | ApiErrorKind::Http
                | ApiErrorKind::Graphql
                | ApiErrorKind::Decode
        )
    }

    /// The kind of a non-2xx answer with this status (the one mapping of status to kind).
    pub const fn from_status(status: u16) -> ApiErrorKind {
        match status {
            401 => ApiErrorKind::Unauthorized,
            403 => ApiErrorKind::Forbidden,
            404 => ApiErrorKind::NotFound,
            429 => ApiErrorKind::RateLimited,
            _ => ApiErrorKind::Http,
        }
    }
}

/// How a request may be sent again after it failed: the operation table's `resend` column.
pub use estatekit_vocab::operations::Resend;

/// The statuses after which an idempotent request is sent again.
pub const IDEMPOTENT_RETRY_STATUSES: [u16; 6] = [408, 429, 500, 502, 503, 504];

/// The statuses by which the service says it did not act (429 too many requests, 503
/// unavailable): a request that is not idempotent is sent again after them.
pub const NOT_ACTED_STATUSES: [u16; 2] = [429, 503];

/// The kinds without an answer after which an idempotent request is sent again.
pub const RETRYABLE_UNANSWERED: [ApiErrorKind; 2] = [ApiErrorKind::Network, ApiErrorKind::Timeout];

/// Whether `kind` is one of [`RETRYABLE_UNANSWERED`]: a match, smaller in the module than a
/// search of the list (a test keeps the two equal).
const fn unanswered(kind: ApiErrorKind) -> bool {
    matches!(kind, ApiErrorKind::Network | ApiErrorKind::Timeout)
}

/// The platform's codes (Node's, in a failed request's `cause`) that prove a request was never
/// sent: the connection was refused, or the host's name not found. After them the outcome of
/// a request that is not idempotent is known (it did nothing), so it may be sent again. A
/// browser's `TypeError` proves nothing of the kind.
pub const UNSENT_CODES: [&str; 3] = ["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"];

/// The one `retryable` rule: whether a later identical call may succeed and is safe to make.
/// The retry loop resends exactly what this allows (while its `retry` limit and the call's
/// timeout leave room), so what the client resends by itself is retryable, and `ApiError`'s
/// constructor derives the same value (for an idempotent operation) from the generated lists.
/// - `status`: the answer's status, `None` without an answer;
/// - `resend`: the operation's [`Resend`] class;
/// - `outcome_known`: false when a request that is not idempotent got no answer (it may have
///   acted), true otherwise (and where the platform proves it was never sent: [`UNSENT_CODES`]).
pub fn retryable(
    kind: ApiErrorKind,
    status: Option<u16>,
    resend: Resend,
    outcome_known: bool,
) -> bool {
    match (resend, status) {
        (Resend::Never, _) => false,
        (Resend::Idempotent, Some(status)) => IDEMPOTENT_RETRY_STATUSES.contains(&status),
        (Resend::NotIdempotent, Some(status)) => NOT_ACTED_STATUSES.contains(&status),
        (Resend::Idempotent, None) => unanswered(kind),
        (Resend::NotIdempotent, None) => outcome_known && unanswered(kind),
    }
}

/// The retry loop's rule: whether a failed attempt is sent again (within the policy's number of
/// repeats and the call's deadline). Exactly what is [`retryable`], except a timeout: it is
/// retryable (a later call may succeed) but ends the call that timed out (for a grant's attempt,
/// the next `getToken` tries again).
pub fn repeated(
    kind: ApiErrorKind,
    status: Option<u16>,
    resend: Resend,
    outcome_known: bool,
) -> bool {
    retryable(kind, status, resend, outcome_known) && kind != ApiErrorKind::Timeout
}

/// Unknown outcome: whether a failure that is not repeated leaves the caller not knowing if the
/// service acted: a request that is not idempotent, sent (`attempts > 0`), and left unanswered
/// (one of [`RETRYABLE_UNANSWERED`]) without proof that it was never sent (`outcome_known`).
pub fn outcome_unknown(
    kind: ApiErrorKind,
    resend: Resend,
    outcome_known: bool,
    attempts: u32,
) -> bool {
    resend != Resend::Idempotent && !outcome_known && attempts > 0 && unanswered(kind)
}

/// Whether a token grant honours an answer's `Retry-After`: only after the statuses by which the
/// service says it did not act ([`NOT_ACTED_STATUSES`]).
pub fn grant_honours_wait(status: u16) -> bool {
    NOT_ACTED_STATUSES.contains(&status)
}

/// The retry rule in words, as README and docs state it (checked against them by a test).
pub fn retry_rule_text() -> String {
    let list = |mut words: Vec<String>| {
        let last = words.pop().unwrap_or_default();
        if words.is_empty() {
            last
        } else {
            format!("{} or {last}", words.join(", "))
        }
    };
    let numbers = |statuses: &[u16]| statuses.iter().map(u16::to_string).collect::<Vec<_>>();
    let mut idempotent: Vec<String> = RETRYABLE_UNANSWERED
        .iter()
        .map(|kind| match kind {
            ApiErrorKind::Timeout => "a timeout".to_owned(),
            ApiErrorKind::Network => "a network failure".to_owned(),
            other => format!("`{}`", other.as_str()),
        })
        .collect();
    idempotent.push(format!(
        "an HTTP {}",
        list(numbers(&IDEMPOTENT_RETRY_STATUSES))
    ));
    format!(
        "a read or a delete is retryable after {}, an upload or a registration only after an \
         HTTP {} (the service did not act) or a network failure that proves nothing was sent (a \
         refused connection or an unknown host, as Node reports them); estatekit itself sends \
         the request again after each of these but a timeout (which ends the call)",
        list(idempotent),
        list(numbers(&NOT_ACTED_STATUSES))
    )
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
    /// The client's `getToken` failed: `kind` is the kind of an `ApiError` it threw, `network`
    /// for a failed `fetch`, else [`ApiErrorKind::TokenSource`].
    #[error("{operation} failed: getToken failed: {reason}")]
    Token {
        /// What the call was doing.
        operation: &'static str,
        /// The failure's kind.
        kind: ApiErrorKind,
        /// The status of an `ApiError` it threw, of a kind that comes with an answer.
        status: Option<u16>,
        /// The `code` of an `ApiError` it threw.
        code: Option<String>,
        /// What it threw, as text.
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
            Error::Status { status, .. } => ApiErrorKind::from_status(*status),
            Error::Graphql { .. } => ApiErrorKind::Graphql,
            Error::Redirected { .. } => ApiErrorKind::Http,
            Error::Network { .. } => ApiErrorKind::Network,
            Error::CallerFetch { .. } => ApiErrorKind::CallerError,
            Error::Token { kind, .. } => *kind,
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
            Error::Token { status, .. } => *status,
            _ => None,
        }
    }

    /// The service's error `code`, when its body carried one.
    pub fn code(&self) -> Option<&str> {
        match self {
            Error::Status { code, .. } | Error::Token { code, .. } => code.as_deref(),
            _ => None,
        }
    }

    /// Whether a later identical call may succeed and is safe to make, for an operation of class
    /// `resend` ([`retryable`]): `outcome_known` is false when a request that is not idempotent
    /// got no answer.
    pub fn retryable(&self, resend: Resend, outcome_known: bool) -> bool {
        retryable(self.kind(), self.status(), resend, outcome_known)
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

/// One field of `ApiError`, besides `name`, `message`, `stack` and `cause`.
pub struct ErrorField {
    /// Its name in JavaScript.
    pub name: &'static str,
    /// Its TypeScript type.
    pub ts: &'static str,
    /// Whether every `ApiError` has it (else it is optional).
    pub always: bool,
    /// Its doc comment.
    pub doc: &'static str,
    /// `new ApiError(init)`'s doc of it, where it has a default.
    pub default: Option<&'static str>,
}

/// Declares the fields of `ApiError` once, each with its JavaScript name, its Rust field and
/// type, its TypeScript type, whether every error has it, its doc, `new ApiError(init)`'s default
/// and where its value comes from: `call` (a call sets it, [`CallFields`]) or `of = expr` (made
/// from the error, in the names given first: the [`Error`], the call's fields and the `retryable`
/// rule's answer). Makes [`ERROR_FIELDS`] (what the TypeScript declarations and js/api_error.js's list are
/// generated from) and, with the `js` feature, [`ApiErrorInfo`] (what the module hands the
/// `ApiError` constructor: every field), [`CallFields`] (the fields a call sets) and
/// [`ApiErrorInfo::new`].
macro_rules! error_fields {
    (
        |$error:ident, $call:ident, $retryable:ident|
        $(
            $(#[$attr:meta])*
            $js:literal $field:ident: $ty:ty, ts $ts:literal, always $always:literal,
            $from:ident $(= $value:expr)?, doc $doc:literal $(, default $default:literal)?;
        )+
    ) => {
        /// The fields of `ApiError`, in order: the one place they are written (with the Rust
        /// structs [`ApiErrorInfo`] and [`CallFields`], made by the same declaration). The
        /// TypeScript declarations (`ApiErrorBase`, `ApiErrorJSON`, `ApiErrorInit`) and the
        /// JavaScript list of js/api_error.js are generated from it ([`typescript`],
        /// [`javascript`]).
        pub const ERROR_FIELDS: [ErrorField; [$($js),+].len()] = [
            $( ErrorField {
                name: $js,
                ts: $ts,
                always: $always,
                doc: $doc,
                default: error_fields!(@option $($default)?),
            }, )+
        ];

        /// What an `ApiError` carries besides `name` and `message` (set on a real JavaScript
        /// `Error`, so it has a stack): every one of [`ERROR_FIELDS`], in order. Internal:
        /// serialized for the `ApiError` constructor (web/src/api_error.rs), without a TypeScript
        /// declaration of its own. `details` and `data` are JavaScript values as they are: with
        /// the `js` feature only.
        #[cfg(feature = "js")]
        #[derive(Clone, Debug, Serialize, Deserialize)]
        pub struct ApiErrorInfo {
            $(
                #[doc = concat!("`", $js, "`: ", $doc)]
                $(#[$attr])*
                #[serde(rename = $js)]
                pub $field: $ty,
            )+
        }

        #[cfg(feature = "js")]
        impl ApiErrorInfo {
            /// Every field of a failed call: what `error` says of itself, what the call set
            /// (`call`), and whether it is `retryable` (by the rule, from the operation's class).
            pub fn new($error: &Error, $call: &CallFields, $retryable: bool) -> ApiErrorInfo {
                ApiErrorInfo {
                    $( $field: error_fields!(@value $from $call $field $($value)?), )+
                }
            }
        }

        error_fields!(@call [] $($from $field: $ty, $js;)+);
    };
    (@option) => { None };
    (@option $default:literal) => { Some($default) };
    (@value call $call:ident $field:ident) => { Clone::clone(&$call.$field) };
    (@value of $call:ident $field:ident $value:expr) => { $value };
    (@call [$($done:tt)*] call $field:ident: $ty:ty, $js:literal; $($rest:tt)*) => {
        error_fields!(@call [$($done)* #[doc = concat!("`", $js, "`.")] pub $field: $ty,] $($rest)*);
    };
    (@call [$($done:tt)*] of $field:ident: $ty:ty, $js:literal; $($rest:tt)*) => {
        error_fields!(@call [$($done)*] $($rest)*);
    };
    (@call [$($done:tt)*]) => {
        /// The fields of an `ApiError` that the call sets (the others are made from its
        /// [`Error`] and the `retryable` rule): those of [`ERROR_FIELDS`] declared `call`.
        #[cfg(feature = "js")]
        #[derive(Clone, Debug, Default)]
        pub struct CallFields {
            $($done)*
        }
    };
}

error_fields! {
    |error, call, retryable|
    "kind" kind: ApiErrorKind, ts "ApiErrorKind", always true, of = error.kind(),
        doc "What went wrong: narrows the error to the fields its kind always has.";
    #[serde(default, skip_serializing_if = "Option::is_none")]
    "status" status: Option<u16>, ts "number", always false, of = error.status(),
        doc "The HTTP status, on the kinds that come with an answer (0 for a redirect, which is never followed and whose status a browser hides).";
    #[serde(default, skip_serializing_if = "Option::is_none")]
    "code" code: Option<String>, ts "string", always false, of = error.code().map(str::to_owned),
        doc "The service's error `code`, when an answer's body had one.";
    #[serde(default, skip_serializing_if = "Option::is_none")]
    "requestId" request_id: Option<String>, ts "string", always false, call,
        doc "The answer's `X-Request-Id` (for a support ticket), when an answer came with one.";
    #[serde(default, skip_serializing_if = "Option::is_none")]
    "retryAfterMs" retry_after_ms: Option<f64>, ts "number", always false,
        of = error.retry_after_ms().map(|ms| ms as f64),
        doc "How long the service asked to wait before trying again (the `Retry-After` of a 429 or a 503), in milliseconds.";
    "attempts" attempts: u32, ts "number", always true, call,
        doc "How many requests the call made.", default "Default 0.";
    "retryable" retryable: bool, ts "boolean", always true, of = retryable,
        doc "Whether a later identical call may succeed and is safe to make: RULE. When `attempts` is over 1, estatekit already retried it.",
        default "Default: what the client would report for a read with this `kind` and `status`.";
    #[serde(default, with = "serde_wasm_bindgen::preserve", skip_serializing_if = "JsValue::is_undefined")]
    "details" details: JsValue, ts "unknown", always false, call,
        doc "The parsed error body (or a text excerpt); for `graphql`, the GraphQL `errors`.";
    #[serde(default, with = "serde_wasm_bindgen::preserve", skip_serializing_if = "JsValue::is_undefined")]
    "data" data: JsValue, ts "unknown", always false, call,
        doc "Partial GraphQL `data` that came with `errors`.";
}

/// The first lines of every file generated from this module.
const GENERATED: &str =
    "Generated by `cargo run -q -p estatekit-core --bin error-model` from core/src/error.rs \
(the kinds, ERROR_FIELDS and the retryable rule): do not edit; `make generate` writes it and \
`make test` fails when it is stale.";

/// A TypeScript union of string literals.
fn union<'a>(names: impl Iterator<Item = &'a str>) -> String {
    names
        .map(|n| format!("\"{n}\""))
        .collect::<Vec<_>>()
        .join(" | ")
}

/// The declarations of the error model (`web/src/api_error.d.ts`, wasm-bindgen's custom section
/// of the main module).
pub fn typescript() -> String {
    let rule = retry_rule_text();
    let answered = ApiErrorKind::ALL.iter().filter(|k| k.answered());
    let plain_answered = ApiErrorKind::ALL.iter().filter(|k| {
        k.answered() && !matches!(k, ApiErrorKind::RateLimited | ApiErrorKind::Graphql)
    });
    let field = |f: &ErrorField, indent: &str| {
        let optional = if f.always { "" } else { "?" };
        let doc = f.doc.replace("RULE", &rule);
        format!(
            "{indent}/** {doc} */\n{indent}{}{optional}: {};\n",
            f.name, f.ts
        )
    };
    let base: String = ERROR_FIELDS.iter().map(|f| field(f, "    ")).collect();
    let json: String = ERROR_FIELDS
        .iter()
        .map(|f| {
            format!(
                "    {}{}: {};\n",
                f.name,
                if f.always { "" } else { "?" },
                f.ts
            )
        })
        .collect();
    let init: String = ERROR_FIELDS
        .iter()
        .filter(|f| f.name != "kind" && f.name != "status")
        .map(|f| {
            let doc = f
                .default
                .map(|d| format!("    /** {d} */\n"))
                .unwrap_or_default();
            format!("{doc}    {}?: {};\n", f.name, f.ts)
        })
        .collect();
    format!(
        "// {GENERATED}

/** What every `ApiError` has, whatever its kind. */
export interface ApiErrorBase extends Error {{
    readonly name: \"ApiError\";
{base}    /** What failed underneath, as it was thrown: a failed `fetch`'s `TypeError`, an abort's reason, what a callback threw. */
    cause?: unknown;
    /** The error as plain data (`JSON.stringify` writes it); `ApiError.fromJSON` makes an `ApiError` of it again. */
    toJSON(): ApiErrorJSON;
}}

/** The kinds of an `ApiError` that always come with an answer of the service (`status` set). */
export type AnsweredKind = {answered};

/** An `ApiError` of a kind that comes with an answer: `status` is always there. */
export interface AnsweredApiError<K extends AnsweredKind = AnsweredKind> extends ApiErrorBase {{
    kind: K;
    /** The answer's HTTP status (0 for a redirect, which is never followed and whose status a browser hides). */
    status: number;
}}

/** HTTP 429: `retryAfterMs` when the service said how long to wait. */
export interface RateLimitedApiError extends AnsweredApiError<\"rate_limited\"> {{}}

/** The GraphQL answer carried `errors` (in `details`), maybe with partial `data`. */
export interface GraphqlApiError extends AnsweredApiError<\"graphql\"> {{
    /** The GraphQL `errors` array, as sent (the token hidden). */
    details: unknown;
}}

/** An `ApiError` of a kind that comes without an answer: no `status`. */
export interface UnansweredApiError<K extends Exclude<ApiErrorKind, AnsweredKind> = Exclude<ApiErrorKind, AnsweredKind>> extends ApiErrorBase {{
    kind: K;
    status?: undefined;
}}

/**
 * Every failure of a call: a real `Error` (with a stack) of the class `ApiError`, discriminated
 * by `kind` (`if (e.kind === \"not_found\") e.status` is a `number`).
 */
export type ApiError =
    | AnsweredApiError<{plain_answered}>
    | RateLimitedApiError
    | GraphqlApiError
    | UnansweredApiError;

/** One cause of an `ApiError` as `toJSON` gives it: an error's `name`, `message`, `code` and its own `cause` (anything else: its text as `message`). */
export interface ApiErrorCauseJSON {{
    name?: string;
    message: string;
    /** A platform's code, e.g. `ECONNREFUSED`, `ENOTFOUND`, `UND_ERR_CONNECT_TIMEOUT`. */
    code?: string | number;
    cause?: ApiErrorCauseJSON;
}}

/** What `ApiError#toJSON` gives: plain data, `cause` as its chain of causes. */
export interface ApiErrorJSON {{
    name: \"ApiError\";
    message: string;
{json}    cause?: ApiErrorCauseJSON;
}}

/** What `new ApiError(...)` takes: `kind`, and `status` for a kind that comes with an answer. */
export type ApiErrorInit<K extends ApiErrorKind = ApiErrorKind> = {{
    kind: K;
    /** Default: `estatekit: <kind>`. */
    message?: string;
{init}    cause?: unknown;
}} & (K extends AnsweredKind ? {{ status: number }} : {{ status?: undefined }});
",
        answered = union(answered.map(|k| k.as_str())),
        plain_answered = union(plain_answered.map(|k| k.as_str())),
    )
}

/// The generated block of js/api_error.js: its field list and the `retryable` rule's lists.
pub fn javascript() -> String {
    let quoted = |names: Vec<&str>| {
        names
            .iter()
            .map(|n| format!("\"{n}\""))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let numbers = |list: &[u16]| {
        list.iter()
            .map(u16::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "// {GENERATED}
/** The fields an `ApiError` carries besides `name`, `message`, `stack` and `cause`, in order. */
const FIELDS = [{fields}];
/** The statuses after which an idempotent request is sent again (and so is `retryable`). */
const IDEMPOTENT_RETRY_STATUSES = [{statuses}];
/** The kinds without an answer after which an idempotent request is sent again. */
const RETRYABLE_UNANSWERED = [{kinds}];
",
        fields = quoted(ERROR_FIELDS.iter().map(|f| f.name).collect()),
        statuses = numbers(&IDEMPOTENT_RETRY_STATUSES),
        kinds = quoted(RETRYABLE_UNANSWERED.iter().map(|k| k.as_str()).collect()),
    )
}

/// Every (kind, status) with its `retryable` for an idempotent operation, as JSON lines (the
/// test of js/api_error.js's constructor against [`retryable`]).
pub fn retryable_table() -> String {
    let mut lines = String::new();
    for kind in ApiErrorKind::ALL {
        let statuses: Vec<Option<u16>> = if kind.answered() {
            (0..600).map(Some).collect()
        } else {
            vec![None]
        };
        for status in statuses {
            let status_json = status.map_or("null".to_owned(), |s| s.to_string());
            let r = retryable(kind, status, Resend::Idempotent, true);
            lines.push_str(&format!("[\"{}\",{status_json},{r}]\n", kind.as_str()));
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    const KINDS: [ApiErrorKind; 3] = [
        ApiErrorKind::Network,
        ApiErrorKind::Timeout,
        ApiErrorKind::Aborted,
    ];
    const RESENDS: [Resend; 3] = [Resend::Idempotent, Resend::NotIdempotent, Resend::Never];

    #[test]
    fn repeated_is_retryable_but_a_timeout_ends_the_call() {
        for resend in RESENDS {
            for known in [false, true] {
                for status in [None, Some(408), Some(429), Some(500), Some(503), Some(404)] {
                    for kind in KINDS {
                        assert_eq!(
                            repeated(kind, status, resend, known),
                            retryable(kind, status, resend, known) && kind != ApiErrorKind::Timeout,
                            "{kind:?} {status:?} {resend:?} {known}"
                        );
                    }
                }
            }
        }
        assert!(retryable(
            ApiErrorKind::Timeout,
            None,
            Resend::Idempotent,
            true
        ));
        assert!(!repeated(
            ApiErrorKind::Timeout,
            None,
            Resend::Idempotent,
            true
        ));
        assert!(repeated(
            ApiErrorKind::Network,
            None,
            Resend::Idempotent,
            false
        ));
        assert!(repeated(
            ApiErrorKind::Network,
            None,
            Resend::NotIdempotent,
            true
        ));
        assert!(!repeated(
            ApiErrorKind::Network,
            None,
            Resend::NotIdempotent,
            false
        ));
        assert!(repeated(
            ApiErrorKind::RateLimited,
            Some(429),
            Resend::NotIdempotent,
            true
        ));
        assert!(!repeated(ApiErrorKind::Network, None, Resend::Never, true));
    }

    #[test]
    fn unanswered_is_the_list() {
        for kind in ApiErrorKind::ALL {
            assert_eq!(
                unanswered(kind),
                RETRYABLE_UNANSWERED.contains(&kind),
                "{kind:?}"
            );
        }
    }

    #[test]
    fn outcome_unknown_only_for_a_sent_unanswered_request_that_may_have_acted() {
        for kind in RETRYABLE_UNANSWERED {
            assert!(outcome_unknown(kind, Resend::NotIdempotent, false, 1));
            assert!(outcome_unknown(kind, Resend::Never, false, 2));
            assert!(!outcome_unknown(kind, Resend::Idempotent, false, 1));
            assert!(!outcome_unknown(kind, Resend::NotIdempotent, true, 1));
            assert!(!outcome_unknown(kind, Resend::NotIdempotent, false, 0));
        }
        assert!(!outcome_unknown(
            ApiErrorKind::Aborted,
            Resend::NotIdempotent,
            false,
            1
        ));
        assert!(!outcome_unknown(
            ApiErrorKind::Unauthorized,
            Resend::NotIdempotent,
            false,
            1
        ));
    }

    #[test]
    fn grants_honour_a_wait_only_when_the_service_did_not_act() {
        for status in 100..600 {
            assert_eq!(
                grant_honours_wait(status),
                status == 429 || status == 503,
                "{status}"
            );
        }
    }

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
        let idem = |e: &Error| e.retryable(Resend::Idempotent, true);
        for code in [408, 429, 500, 502, 503, 504] {
            assert!(idem(&status(code, None)), "{code}");
        }
        for code in [400, 401, 403, 404, 409, 413, 422, 302, 501, 505] {
            assert!(!idem(&status(code, None)), "{code}");
        }
        // Not idempotent: only where the service said it did not act.
        for code in [429, 503] {
            assert!(status(code, None).retryable(Resend::NotIdempotent, true));
        }
        for code in [408, 500, 502, 504, 404] {
            assert!(!status(code, None).retryable(Resend::NotIdempotent, true));
        }
        assert!(!status(503, None).retryable(Resend::Never, true));
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
        assert!(!idem(&caller));
        assert_eq!(caller.kind(), ApiErrorKind::CallerError);
        assert!(idem(&network));
        assert!(!network.retryable(Resend::NotIdempotent, false));
        let timeout = Error::Timeout {
            operation,
            timeout_ms: 10,
        };
        assert!(idem(&timeout));
        assert!(!idem(&Error::Aborted { operation }));
        assert!(!idem(&Error::Redirected { operation }));
        assert!(!idem(&Error::invalid(
            "options.baseUrl",
            "must not be empty"
        )));
        let decode = Error::Decode {
            operation,
            status: 200,
            reason: "x".into(),
        };
        assert!(!idem(&decode));
        let graphql = |status| Error::Graphql {
            operation,
            messages: vec![],
            status,
        };
        assert!(!idem(&graphql(200)));
        assert!(idem(&graphql(503)));
        assert!(idem(&graphql(429)));
    }

    #[test]
    fn kinds_know_their_names_and_answers() {
        for kind in ApiErrorKind::ALL {
            assert_eq!(serde_json::to_value(kind).unwrap(), kind.as_str());
            // An answered kind is what some status maps to, or graphql/decode (a 2xx).
            let mapped = (100..600).any(|s| ApiErrorKind::from_status(s) == kind);
            assert_eq!(
                kind.answered(),
                mapped || matches!(kind, ApiErrorKind::Graphql | ApiErrorKind::Decode),
                "{kind:?}"
            );
        }
        assert_eq!(
            retry_rule_text(),
            "a read or a delete is retryable after a network failure, a timeout or an HTTP 408, \
             429, 500, 502, 503 or 504, an upload or a registration only after an HTTP 429 or 503 \
             (the service did not act) or a network failure that proves nothing was sent (a \
             refused connection or an unknown host, as Node reports them); estatekit itself \
             sends the request again after each of these but a timeout (which ends the call)"
        );
    }

    #[test]
    fn a_failed_get_token_keeps_its_kind_and_follows_the_rule() {
        let token = |kind, status: Option<u16>| Error::Token {
            operation: "upload document",
            kind,
            status,
            code: None,
            reason: "Error: token route answered HTTP 502".into(),
        };
        let source = token(ApiErrorKind::TokenSource, None);
        assert_eq!(source.kind(), ApiErrorKind::TokenSource);
        assert_eq!(source.status(), None);
        assert_eq!(
            source.to_string(),
            "upload document failed: getToken failed: Error: token route answered HTTP 502"
        );
        assert!(!source.retryable(Resend::Idempotent, true));
        // Nothing reached the service: the outcome is known, a network failure may be retried.
        let network = token(ApiErrorKind::Network, None);
        assert!(network.retryable(Resend::NotIdempotent, true));
        let thrown = token(ApiErrorKind::Http, Some(502));
        assert_eq!(
            (thrown.kind(), thrown.status()),
            (ApiErrorKind::Http, Some(502))
        );
        assert!(thrown.retryable(Resend::Idempotent, true));
        assert!(!thrown.retryable(Resend::NotIdempotent, true));
        assert_eq!(
            ApiErrorKind::from_name("token_source"),
            Some(ApiErrorKind::TokenSource)
        );
        assert_eq!(ApiErrorKind::from_name("nope"), None);
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
