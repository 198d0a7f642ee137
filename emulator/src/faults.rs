//! Fault injection: matching and applying `/_emulator/faults` entries.

use crate::errors::{error_body, ApiError};
use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use axum::response::Response;
use base64::Engine;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Largest accepted `delayMs` (10 minutes).
pub const MAX_DELAY_MS: u64 = 600_000;

/// One injected fault.
#[derive(Deserialize, Serialize, Clone, Debug, Default)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Fault {
    /// Method to match (any when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub method: Option<String>,
    /// Exact path, or a prefix ending in `*`.
    pub path: String,
    /// Token to match (any when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub token: Option<String>,
    /// Remaining uses (default 1).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub times: Option<u32>,
    /// Delay before the effect, in ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub delay_ms: Option<u64>,
    /// Replacement status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub status: Option<u16>,
    /// Replacement body (raw text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub body: Option<String>,
    /// Replacement body (base64).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub body_base64: Option<String>,
    /// Content type of the replacement body.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub content_type: Option<String>,
    /// Headers to add or override.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", tsify(optional, type = "Record<string, string>"))]
    pub headers: Option<BTreeMap<String, String>>,
    /// Headers to remove.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub remove_headers: Option<Vec<String>>,
    /// Cut the real body in half.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub truncate: Option<bool>,
    /// Close the connection without a response.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub drop: Option<bool>,
}

/// Marker extension: the response was produced by a fault (leave its body alone).
#[derive(Clone, Copy, Debug)]
pub struct FaultResponse;

impl Fault {
    /// Validates a fault and fills defaults.
    pub fn validate(mut self) -> Result<Fault, ApiError> {
        if !self.path.starts_with('/') {
            return Err(ApiError::bad_request("fault `path` must start with `/`"));
        }
        if let Some(m) = &self.method {
            if m.is_empty() || !m.bytes().all(|b| b.is_ascii_alphabetic()) {
                return Err(ApiError::bad_request(
                    "fault `method` must be an HTTP method",
                ));
            }
            self.method = Some(m.to_ascii_uppercase());
        }
        match self.times {
            None => self.times = Some(1),
            Some(0) => return Err(ApiError::bad_request("fault `times` must be at least 1")),
            Some(_) => {}
        }
        if self.delay_ms.unwrap_or(0) > MAX_DELAY_MS {
            return Err(ApiError::bad_request(format!(
                "fault `delayMs` must be at most {MAX_DELAY_MS}"
            )));
        }
        if let Some(s) = self.status {
            if !(200..=599).contains(&s) {
                return Err(ApiError::bad_request("fault `status` must be 200..=599"));
            }
        }
        if self.body.is_some() && self.body_base64.is_some() {
            return Err(ApiError::bad_request(
                "fault: give either `body` or `bodyBase64`, not both",
            ));
        }
        if let Some(b) = &self.body_base64 {
            if base64::engine::general_purpose::STANDARD.decode(b).is_err() {
                return Err(ApiError::bad_request(
                    "fault `bodyBase64` is not valid base64",
                ));
            }
        }
        if let Some(ct) = &self.content_type {
            if HeaderValue::from_str(ct).is_err() {
                return Err(ApiError::bad_request(
                    "fault `contentType` is not a valid header value",
                ));
            }
        }
        for (k, v) in self.headers.iter().flatten() {
            if HeaderName::try_from(k.as_str()).is_err() || HeaderValue::from_str(v).is_err() {
                return Err(ApiError::bad_request(format!(
                    "fault `headers`: invalid header `{k}`"
                )));
            }
        }
        for k in self.remove_headers.iter().flatten() {
            if HeaderName::try_from(k.as_str()).is_err() {
                return Err(ApiError::bad_request(format!(
                    "fault `removeHeaders`: invalid header name `{k}`"
                )));
            }
        }
        Ok(self)
    }

    /// True if the fault applies to a request with this method, path and token.
    pub fn matches(&self, method: &str, path: &str, token: Option<&str>) -> bool {
        if let Some(m) = &self.method {
            if !m.eq_ignore_ascii_case(method) {
                return false;
            }
        }
        if let Some(t) = &self.token {
            if token != Some(t.as_str()) {
                return false;
            }
        }
        match self.path.strip_suffix('*') {
            Some(prefix) => path.starts_with(prefix),
            None => self.path == path,
        }
    }

    /// True if the fault replaces the real handler's response.
    pub fn replaces(&self) -> bool {
        self.status.is_some() || self.body.is_some() || self.body_base64.is_some()
    }

    /// Builds the replacement response.
    pub fn replacement(&self) -> Response {
        let status = self
            .status
            .and_then(|s| StatusCode::from_u16(s).ok())
            .unwrap_or(StatusCode::OK);
        let (bytes, default_ct): (Vec<u8>, &str) = if let Some(b) = &self.body {
            (b.clone().into_bytes(), "text/plain; charset=utf-8")
        } else if let Some(b) = &self.body_base64 {
            (
                base64::engine::general_purpose::STANDARD
                    .decode(b)
                    .unwrap_or_default(),
                "application/octet-stream",
            )
        } else {
            let msg = format!("injected fault: status {}", status.as_u16());
            (error_body(status, &msg).into_bytes(), "application/json")
        };
        let mut r = Response::new(Body::from(bytes));
        *r.status_mut() = status;
        let ct = self.content_type.as_deref().unwrap_or(default_ct);
        if let Ok(v) = HeaderValue::from_str(ct) {
            r.headers_mut().insert(axum::http::header::CONTENT_TYPE, v);
        }
        r.extensions_mut().insert(FaultResponse);
        r
    }

    /// Applies `headers` and `removeHeaders` to a response's headers.
    pub fn edit_headers(&self, h: &mut HeaderMap) {
        for k in self.remove_headers.iter().flatten() {
            if let Ok(name) = HeaderName::try_from(k.as_str()) {
                h.remove(name);
            }
        }
        for (k, v) in self.headers.iter().flatten() {
            if let (Ok(name), Ok(val)) =
                (HeaderName::try_from(k.as_str()), HeaderValue::from_str(v))
            {
                h.insert(name, val);
            }
        }
    }
}

/// A response whose body fails on the first poll, so hyper aborts the connection
/// before sending anything: the client sees a network error.
pub fn drop_response() -> Response {
    let stream = futures_util::stream::once(async {
        Err::<Bytes, std::io::Error>(std::io::Error::other("connection dropped by fault"))
    });
    let mut r = Response::new(Body::from_stream(stream));
    r.extensions_mut().insert(FaultResponse);
    r
}

/// Cuts a response body in half (keeping headers consistent).
pub async fn truncate(resp: Response) -> Response {
    let (mut parts, body) = resp.into_parts();
    let bytes = axum::body::to_bytes(body, usize::MAX)
        .await
        .unwrap_or_default();
    let half = bytes.slice(0..bytes.len() / 2);
    parts.headers.remove(axum::http::header::CONTENT_LENGTH);
    parts.extensions.insert(FaultResponse);
    Response::from_parts(parts, Body::from(half))
}
