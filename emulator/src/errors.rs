//! The JSON error shape `{"code","statusCode","message"}`.

use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// An API error rendered as `{"code","statusCode","message"}`.
#[derive(Debug, Clone)]
pub struct ApiError {
    /// HTTP status.
    pub status: StatusCode,
    /// Human-readable message naming the offending field.
    pub message: String,
}

/// The `code` string used for a status.
pub fn code_for(status: StatusCode) -> &'static str {
    match status.as_u16() {
        400 => "bad_request",
        401 => "unauthorized",
        403 => "server_error",
        404 => "not_found",
        405 => "method_not_allowed",
        408 => "request_timeout",
        409 => "conflict",
        413 => "payload_too_large",
        415 => "unsupported_media_type",
        422 => "unprocessable_entity",
        429 => "too_many_requests",
        503 => "service_unavailable",
        502 => "bad_gateway",
        504 => "gateway_timeout",
        s if s >= 500 => "server_error",
        _ => "error",
    }
}

impl ApiError {
    /// Builds an error with a status and message.
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError {
            status,
            message: message.into(),
        }
    }
    /// 400 bad_request.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message)
    }
    /// 401 unauthorized.
    pub fn unauthorized(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, message)
    }
    /// 403 server_error.
    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, message)
    }
    /// 404 not_found.
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, message)
    }
    /// 413 payload_too_large.
    pub fn too_large(limit_bytes: usize) -> Self {
        Self::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("request body exceeds the limit of {limit_bytes} bytes"),
        )
    }
}

/// The JSON body for an error status.
pub fn error_body(status: StatusCode, message: &str) -> String {
    json!({"code": code_for(status), "statusCode": status.as_u16(), "message": message}).to_string()
}

/// A full JSON error response.
pub fn error_response(status: StatusCode, message: &str) -> Response {
    let mut r = (status, error_body(status, message)).into_response();
    r.headers_mut().insert(
        axum::http::header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    r
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        error_response(self.status, &self.message)
    }
}

/// Result type of handlers.
pub type ApiResult<T> = Result<T, ApiError>;

/// Maps a body-reading rejection to a JSON error (413 for the size limit, else 400).
pub fn body_rejection(e: axum::extract::rejection::BytesRejection) -> ApiError {
    let status = e.status();
    if status == StatusCode::PAYLOAD_TOO_LARGE {
        ApiError::new(status, format!("request body too large: {}", e.body_text()))
    } else {
        ApiError::bad_request(format!(
            "could not read the request body: {}",
            e.body_text()
        ))
    }
}

/// Parses a JSON request body, requiring a JSON content type.
pub fn parse_json(
    headers: &axum::http::HeaderMap,
    body: Result<axum::body::Bytes, axum::extract::rejection::BytesRejection>,
) -> ApiResult<serde_json::Value> {
    let body = body.map_err(body_rejection)?;
    let ct = headers
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if ct.is_empty() {
        return Err(ApiError::bad_request(
            "missing `Content-Type` header (expected application/json)",
        ));
    }
    if !ct.to_ascii_lowercase().contains("json") {
        return Err(ApiError::bad_request(format!(
            "`Content-Type` must be application/json, got `{ct}`"
        )));
    }
    serde_json::from_slice(&body)
        .map_err(|e| ApiError::bad_request(format!("request body is not valid JSON: {e}")))
}
