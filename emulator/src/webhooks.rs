//! Webhook endpoints under `/api/external-integrations/webhooks`.

use crate::credentials::Token;
use crate::documents::check_id;
use crate::errors::{parse_json, ApiError, ApiResult};
use crate::model::EVENT_TYPES;
use crate::state::AppState;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, PathRejection};
use axum::extract::{Extension, Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{on, MethodFilter, MethodRouter};
use estatekit_vocab::operations::Operation;
use serde_json::Value;

fn forbid_readonly(token: &Token) -> ApiResult<()> {
    if token.is_readonly() {
        Err(ApiError::forbidden(
            "this access token is not authorized to manage webhooks",
        ))
    } else {
        Ok(())
    }
}

/// Validates an event type string.
pub fn check_event_type(v: Option<&Value>, field: &str) -> ApiResult<String> {
    match v {
        Some(Value::String(s)) if EVENT_TYPES.contains(&s.as_str()) => Ok(s.clone()),
        None | Some(Value::Null) => Err(ApiError::bad_request(format!(
            "missing required field `{field}`"
        ))),
        Some(other) => Err(ApiError::bad_request(format!(
            "`{field}` must be one of the event types ({}); got {}",
            EVENT_TYPES.join(", "),
            truncate_for_msg(&other.to_string())
        ))),
    }
}

fn truncate_for_msg(s: &str) -> String {
    if s.chars().count() > 80 {
        format!("{}…", s.chars().take(80).collect::<String>())
    } else {
        s.to_string()
    }
}

/// Checks a webhook `url`: an absolute http or https URL.
pub fn check_url(v: Option<&Value>) -> ApiResult<String> {
    let s = match v {
        Some(Value::String(s)) => s,
        None | Some(Value::Null) => {
            return Err(ApiError::bad_request("missing required field `url`"))
        }
        Some(_) => return Err(ApiError::bad_request("`url` must be a string")),
    };
    let bad = || {
        ApiError::bad_request(format!(
            "`url` must be an absolute http or https URL; got `{}`",
            truncate_for_msg(s)
        ))
    };
    if s.len() > 2048 {
        return Err(ApiError::bad_request(
            "`url` is longer than 2048 characters",
        ));
    }
    let u = url::Url::parse(s).map_err(|_| bad())?;
    if !matches!(u.scheme(), "http" | "https") || u.host_str().is_none_or(str::is_empty) {
        return Err(bad());
    }
    Ok(s.clone())
}

/// `GET /api/external-integrations/webhooks`.
pub async fn list(
    State(state): State<AppState>,
    Extension(token): Extension<Token>,
) -> ApiResult<Response> {
    forbid_readonly(&token)?;
    let hooks = state
        .with_account(&token.0, |a| a.webhooks.clone())
        .unwrap_or_default();
    Ok(axum::Json(hooks).into_response())
}

/// `POST /api/external-integrations/webhooks`.
pub async fn create(
    State(state): State<AppState>,
    Extension(token): Extension<Token>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    forbid_readonly(&token)?;
    let v = parse_json(&headers, body)?;
    let obj = v.as_object().ok_or_else(|| {
        ApiError::bad_request("request body must be a JSON object with `type` and `url`")
    })?;
    let event_type = check_event_type(obj.get("type"), "type")?;
    let url = check_url(obj.get("url"))?;
    let now = state.now_iso();
    let id = state
        .with_account(&token.0, |a| a.add_webhook(event_type, url, &now))
        .ok_or_else(|| ApiError::unauthorized("unknown access token"))?;
    let mut r = StatusCode::OK.into_response();
    if let Ok(v) = HeaderValue::from_str(&id) {
        r.headers_mut().insert(header::LOCATION, v);
    }
    Ok(r)
}

/// `DELETE /api/external-integrations/webhooks/{id}`.
pub async fn delete(
    State(state): State<AppState>,
    Extension(token): Extension<Token>,
    id: Result<Path<String>, PathRejection>,
) -> ApiResult<Response> {
    forbid_readonly(&token)?;
    let id = check_id(id, "id")?;
    let removed = state
        .with_account(&token.0, |a| {
            let before = a.webhooks.len();
            a.webhooks.retain(|w| w.id != id);
            a.webhooks.len() != before
        })
        .unwrap_or(false);
    if removed {
        Ok(StatusCode::NO_CONTENT.into_response())
    } else {
        Err(ApiError::not_found(format!("webhook `{id}` not found")))
    }
}

/// The handler of each operation of the table this module answers (emulator/src/routes.rs routes
/// it at its row's route, `filter` being the route's method).
pub fn answering(op: Operation, filter: MethodFilter) -> Option<MethodRouter<AppState>> {
    Some(match op {
        Operation::ListWebhooks => on(filter, list),
        Operation::RegisterWebhook => on(filter, create),
        Operation::DeleteWebhook => on(filter, delete),
        _ => return None,
    })
}
