//! Who an API request is: the bearer token of its `Authorization` header, and the token of the
//! account it reaches (what the pipeline hands the route handlers).

use crate::config::READONLY_TOKEN;
use axum::http::{header, HeaderMap};

/// The token of the account an API request reaches (inserted as a request extension): the
/// fixed token itself, or the account's token for an issued access token.
#[derive(Clone, Debug)]
pub struct Token(pub String);

impl Token {
    /// True for the read-only token.
    pub fn is_readonly(&self) -> bool {
        self.0 == READONLY_TOKEN
    }
}

/// Extracts the bearer token; None when missing or malformed.
pub fn bearer(headers: &HeaderMap) -> Option<String> {
    let v = headers.get(header::AUTHORIZATION)?.to_str().ok()?.trim();
    let (scheme, tok) = v.split_once(' ')?;
    let tok = tok.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !tok.is_empty() && !tok.contains(' '))
        .then(|| tok.to_string())
}
