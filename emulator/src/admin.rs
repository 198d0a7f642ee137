//! Admin API under `/_emulator/` (no token).

use crate::delivery;
use crate::errors::{parse_json, ApiError, ApiResult};
use crate::faults::Fault;
use crate::ratelimit;
use crate::state::{AppState, RequestRecord, SinkEntry};
use crate::util::lock;
use crate::webhooks::check_event_type;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, PathRejection};
use axum::extract::{Path, RawQuery, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

type Body = Result<Bytes, BytesRejection>;

pub(crate) fn object(headers: &HeaderMap, body: Body) -> ApiResult<Map<String, Value>> {
    match parse_json(headers, body)? {
        Value::Object(m) => Ok(m),
        _ => Err(ApiError::bad_request("request body must be a JSON object")),
    }
}

pub(crate) fn opt_token(m: &Map<String, Value>) -> ApiResult<Option<String>> {
    match m.get("token") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if !s.is_empty() => Ok(Some(s.clone())),
        Some(_) => Err(ApiError::bad_request("`token` must be a non-empty string")),
    }
}

/// `GET /_emulator/info`: the origins, the tokens, the default account's webhook `subdomain`
/// and every account's (`accounts: [{token, subdomain}]`, in the order of `tokens`).
pub async fn info(State(state): State<AppState>) -> Response {
    let tokens = lock(&state.token_order).clone();
    let accounts: Vec<Value> = tokens
        .iter()
        .map(|t| json!({"token": t, "subdomain": crate::state::subdomain_of(t)}))
        .collect();
    Json(json!({
        "baseUrl": *lock(&state.base_url),
        "secondOrigin": *lock(&state.second_origin),
        "tokens": tokens,
        "subdomain": state.default_subdomain(),
        "accounts": accounts,
    }))
    .into_response()
}

/// `POST /_emulator/reset`.
pub async fn reset(State(state): State<AppState>) -> Response {
    state.reset();
    Json(json!({"reset": true})).into_response()
}

/// `POST /_emulator/accounts`.
pub async fn accounts(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Body,
) -> ApiResult<Response> {
    let m = object(&headers, body)?;
    let token =
        opt_token(&m)?.ok_or_else(|| ApiError::bad_request("missing required field `token`"))?;
    if !crate::config::is_valid_token(&token) {
        return Err(ApiError::bad_request(
            "`token` must not contain whitespace, commas or control characters (max 512 chars)",
        ));
    }
    state.create_account(&token);
    let (subdomain, company_id) = state
        .with_account(&token, |a| (a.subdomain.clone(), a.company_id.clone()))
        .unwrap_or_default();
    Ok(
        Json(json!({"token": token, "subdomain": subdomain, "companyId": company_id}))
            .into_response(),
    )
}

/// `POST /_emulator/config`.
pub async fn config(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Body,
) -> ApiResult<Response> {
    let m = object(&headers, body)?;
    let limit = match m.get("rateLimit") {
        Some(Value::Number(n)) => {
            n.as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| {
                    ApiError::bad_request("`rateLimit` must be an integer in 0..=4294967295")
                })?
        }
        None => return Err(ApiError::bad_request("missing required field `rateLimit`")),
        Some(_) => {
            return Err(ApiError::bad_request(
                "`rateLimit` must be a non-negative integer",
            ))
        }
    };
    let token = opt_token(&m)?;
    if !ratelimit::configure(&state, limit, token.as_deref()) {
        return Err(ApiError::bad_request("unknown `token`"));
    }
    Ok(Json(json!({"rateLimit": limit, "token": token})).into_response())
}

/// `POST /_emulator/faults` (one fault or an array).
pub async fn add_faults(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Body,
) -> ApiResult<Response> {
    let v = parse_json(&headers, body)?;
    let items = match v {
        Value::Array(a) => a,
        other @ Value::Object(_) => vec![other],
        _ => {
            return Err(ApiError::bad_request(
                "body must be a fault object or an array of them",
            ))
        }
    };
    let mut faults = Vec::with_capacity(items.len());
    for (i, item) in items.into_iter().enumerate() {
        let f: Fault = serde_json::from_value(item)
            .map_err(|e| ApiError::bad_request(format!("fault #{i}: {e}")))?;
        faults.push(f.validate()?);
    }
    let added = faults.len();
    let mut pending = lock(&state.faults);
    pending.extend(faults);
    Ok(Json(json!({"added": added, "pending": pending.len()})).into_response())
}

/// `GET /_emulator/faults`.
pub async fn list_faults(State(state): State<AppState>) -> Response {
    Json(lock(&state.faults).clone()).into_response()
}

/// `DELETE /_emulator/faults`.
pub async fn clear_faults(State(state): State<AppState>) -> Response {
    let mut f = lock(&state.faults);
    let n = f.len();
    f.clear();
    Json(json!({"cleared": n})).into_response()
}

/// `GET /_emulator/counters[?token=t]`.
pub async fn counters(State(state): State<AppState>, RawQuery(q): RawQuery) -> Response {
    let token = form_urlencoded::parse(q.unwrap_or_default().as_bytes())
        .find(|(k, _)| k == "token")
        .map(|(_, v)| v.into_owned());
    let c = lock(&state.counters);
    let mut routes: BTreeMap<String, u64> = BTreeMap::new();
    for (t, m) in c.iter() {
        if token.as_ref().is_some_and(|want| want != t) {
            continue;
        }
        for (k, n) in m {
            *routes.entry(k.clone()).or_insert(0) += n;
        }
    }
    let total: u64 = routes.values().sum();
    Json(json!({"total": total, "routes": routes})).into_response()
}

/// Fields of a request record that `GET /_emulator/requests` filters on.
const REQUEST_FILTERS: [&str; 5] = ["method", "path", "query", "host", "origin"];

/// `GET /_emulator/requests[?method=M&path=P&query=Q&host=H&origin=O]`: the log, or only the
/// records whose every given field equals the given value (a test reads its own requests, e.g.
/// by a marker it put in the path or query, whatever other tests send meanwhile).
pub async fn requests(State(state): State<AppState>, RawQuery(q): RawQuery) -> ApiResult<Response> {
    let mut want: Vec<(String, String)> = Vec::new();
    for (k, v) in form_urlencoded::parse(q.unwrap_or_default().as_bytes()) {
        if !REQUEST_FILTERS.contains(&k.as_ref()) {
            return Err(ApiError::bad_request(format!(
                "unknown filter `{k}`: use {}",
                REQUEST_FILTERS.join(", ")
            )));
        }
        want.push((k.into_owned(), v.into_owned()));
    }
    let matches = |r: &RequestRecord| {
        want.iter().all(|(k, v)| {
            let field = match k.as_str() {
                "method" => Some(r.method.as_str()),
                "path" => Some(r.path.as_str()),
                "query" => r.query.as_deref(),
                "host" => r.host.as_deref(),
                _ => r.origin.as_deref(),
            };
            field == Some(v.as_str())
        })
    };
    let log = lock(&state.requests);
    let found: Vec<RequestRecord> = log.iter().filter(|r| matches(r)).cloned().collect();
    Ok(Json(found).into_response())
}

/// `DELETE /_emulator/requests`.
pub async fn clear_requests(State(state): State<AppState>) -> Response {
    lock(&state.requests).clear();
    Json(json!({"cleared": true})).into_response()
}

/// `POST /_emulator/emit`: raises an event (estatekit/testing's `emit`).
pub async fn emit(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Body,
) -> ApiResult<Response> {
    let m = object(&headers, body)?;
    let event_type = check_event_type(m.get("type"), "type")?;
    let data = match m.get("data") {
        None | Some(Value::Null) => None,
        Some(d) => Some(d.clone()),
    };
    let token = opt_token(&m)?;
    let copies = match m.get("copies") {
        None | Some(Value::Null) => 0,
        Some(Value::Number(n)) => n
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .filter(|n| *n <= delivery::MAX_COPIES)
            .ok_or_else(|| {
                ApiError::bad_request(format!(
                    "`copies` must be an integer in 0..={}",
                    delivery::MAX_COPIES
                ))
            })?,
        Some(_) => {
            return Err(ApiError::bad_request(format!(
                "`copies` must be an integer in 0..={}",
                delivery::MAX_COPIES
            )))
        }
    };
    let (uuid, n) = delivery::dispatch(&state, &event_type, data, token.as_deref(), copies)?;
    Ok(Json(json!({"uuid": uuid, "webhooks": n})).into_response())
}

/// Longest wait of `GET /_emulator/settled`, in milliseconds.
const SETTLE_MAX_MS: u64 = 600_000;

/// `GET /_emulator/settled[?timeoutMs=n]` (estatekit/testing's `settled`): answers once every
/// delivery started so far has finished, every attempt and retry included, with the delivery
/// records; 504 with the number still in flight after `timeoutMs` (default 30000).
pub async fn settled(State(state): State<AppState>, RawQuery(q): RawQuery) -> ApiResult<Response> {
    let given = form_urlencoded::parse(q.unwrap_or_default().as_bytes())
        .find(|(k, _)| k == "timeoutMs")
        .map(|(_, v)| v.into_owned());
    let timeout_ms = match given {
        None => 30_000,
        Some(text) => text
            .parse::<u64>()
            .ok()
            .filter(|ms| *ms <= SETTLE_MAX_MS)
            .ok_or_else(|| {
                ApiError::bad_request(format!(
                    "`timeoutMs` must be a whole number of milliseconds in 0..={SETTLE_MAX_MS}, got `{text}`"
                ))
            })?,
    };
    let pending = delivery::settled(&state, timeout_ms).await;
    if pending > 0 {
        return Err(ApiError::new(
            axum::http::StatusCode::GATEWAY_TIMEOUT,
            format!(
                "{pending} deliveries still in flight after {timeout_ms} ms (a receiver that does not answer, or retries with a long backoff: see `--delivery-backoff-ms`)"
            ),
        ));
    }
    Ok(Json(json!({"pending": 0, "deliveries": lock(&state.deliveries).clone()})).into_response())
}

/// `GET /_emulator/deliveries`.
pub async fn deliveries(State(state): State<AppState>) -> Response {
    Json(lock(&state.deliveries).clone()).into_response()
}

/// `POST /_emulator/sink/{name}`.
pub async fn sink_post(
    State(state): State<AppState>,
    name: Result<Path<String>, PathRejection>,
    body: Body,
) -> ApiResult<Response> {
    let Path(name) =
        name.map_err(|e| ApiError::bad_request(format!("invalid sink name: {}", e.body_text())))?;
    let bytes = body.map_err(crate::errors::body_rejection)?;
    let body = serde_json::from_slice::<Value>(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
    lock(&state.sink).push(SinkEntry {
        name,
        body,
        received_at: state.now_iso(),
    });
    Ok(Json(json!({"received": true})).into_response())
}

/// `GET /_emulator/sink`.
pub async fn sink_list(State(state): State<AppState>) -> Response {
    Json(lock(&state.sink).clone()).into_response()
}

/// `DELETE /_emulator/sink`.
pub async fn sink_clear(State(state): State<AppState>) -> Response {
    lock(&state.sink).clear();
    Json(json!({"cleared": true})).into_response()
}
