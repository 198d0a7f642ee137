//! `POST /_emulator/seed`: adds documents, messages and webhooks to an account, as a test sets
//! up the data it needs (the same records the API would create, with the same checks).

use crate::admin::object;
use crate::documents::clean_resource_path;
use crate::errors::{ApiError, ApiResult};
use crate::model::{Message, MessageAttachment, NewDocument, SentBy, DOCUMENT_TYPES};
use crate::state::AppState;
use crate::webhooks::{check_event_type, check_url};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::sync::Arc;

/// The body of `POST /_emulator/seed`.
#[derive(Deserialize, Debug, Default)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SeedRequest {
    /// The account to add to (default: the first configured token).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub token: Option<String>,
    /// Documents to add (their content is `content`, as text).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional, type = "readonly SeedDocument[]"))]
    pub documents: Vec<SeedDocument>,
    /// Messages to add to the account's conversations.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional, type = "readonly SeedMessage[]"))]
    pub messages: Vec<SeedMessage>,
    /// Webhooks to register.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional, type = "readonly SeedWebhook[]"))]
    pub webhooks: Vec<SeedWebhook>,
}

/// A document to add; the service gives it an id, a company and timestamps.
#[derive(Deserialize, Debug)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SeedDocument {
    /// Document type, one of the seven `DocumentType`s.
    #[serde(rename = "type")]
    #[cfg_attr(
        feature = "ts",
        tsify(type = "import(\"./estatekit_wasm.js\").DocumentType")
    )]
    pub doc_type: String,
    /// Title (default `file`).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub title: Option<String>,
    /// Where it is filed, e.g. `/tenants/t-1/` (default `documents`).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub resource_path: Option<String>,
    /// Linked tenant.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub tenant_id: Option<String>,
    /// Linked unit.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub unit_id: Option<String>,
    /// Linked property.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub property_id: Option<String>,
    /// Linked property group.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub property_group_id: Option<String>,
    /// Linked candidate.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub candidate_id: Option<String>,
    /// MIME type (default `text/plain`).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub mime_type: Option<String>,
    /// The file's content, as text (default empty).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub content: Option<String>,
}

/// A message to add; the service numbers it (`msg-<n>`, after every existing message).
#[derive(Deserialize, Debug)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SeedMessage {
    /// The candidate of the conversation.
    pub candidate_id: String,
    /// Message text.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub text: Option<String>,
    /// Who sent it (default `CANDIDATE`).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional, type = "\"ADMIN\" | \"CANDIDATE\""))]
    pub sent_by: Option<String>,
    /// Contact of the conversation (the `contactId` filter; default `contact-<candidateId>`).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub contact_id: Option<String>,
    /// Listing of the conversation (the `listingId` filter; default `listing-<candidateId>`).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub listing_id: Option<String>,
    /// Read flag (default false).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub is_read: Option<bool>,
    /// Id of the message it replies to.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub reply_to_message_id: Option<String>,
    /// File names of attachments (each gets an id, a resource path, a type and a size).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional, type = "readonly string[]"))]
    pub attachments: Vec<String>,
}

/// A webhook to register, as `POST /api/external-integrations/webhooks` does.
#[derive(Deserialize, Debug)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[serde(deny_unknown_fields)]
pub struct SeedWebhook {
    /// Event type, one of the 28 `EventType`s.
    #[serde(rename = "type")]
    #[cfg_attr(
        feature = "ts",
        tsify(type = "import(\"./estatekit_wasm.js\").EventType")
    )]
    pub event_type: String,
    /// Receiver URL (absolute http or https).
    pub url: String,
}

/// What `POST /_emulator/seed` created, in the order given.
#[derive(Serialize, Debug, Default)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Seeded {
    /// Ids of the documents.
    pub document_ids: Vec<String>,
    /// Ids of the messages.
    pub message_ids: Vec<String>,
    /// Ids of the webhooks.
    pub webhook_ids: Vec<String>,
}

/// `POST /_emulator/seed`: all or nothing (a bad entry adds none of them).
pub async fn seed(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let m = object(&headers, body)?;
    let req: SeedRequest = serde_json::from_value(Value::Object(m))
        .map_err(|e| ApiError::bad_request(format!("seed: {e}")))?;
    let token = match req.token.clone() {
        Some(t) => t,
        None => state
            .config
            .tokens
            .first()
            .cloned()
            .ok_or_else(|| ApiError::bad_request("no account to seed"))?,
    };
    if !state.has_token(&token) {
        return Err(ApiError::bad_request("seed: unknown `token`"));
    }
    let docs = req
        .documents
        .iter()
        .enumerate()
        .map(|(i, d)| check_document(i, d))
        .collect::<ApiResult<Vec<_>>>()?;
    let hooks = req
        .webhooks
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let at =
                |e: ApiError| ApiError::bad_request(format!("seed: webhooks[{i}]: {}", e.message));
            let t =
                check_event_type(Some(&Value::String(w.event_type.clone())), "type").map_err(at)?;
            let u = check_url(Some(&Value::String(w.url.clone()))).map_err(at)?;
            Ok((t, u))
        })
        .collect::<ApiResult<Vec<_>>>()?;
    let msgs = req
        .messages
        .iter()
        .enumerate()
        .map(|(i, m)| check_message(i, m))
        .collect::<ApiResult<Vec<_>>>()?;
    let now = state.now_iso();
    let out = state
        .with_account(&token, |a| {
            let mut out = Seeded::default();
            for (d, rp) in docs {
                let new = NewDocument {
                    title: d.title.clone().unwrap_or_else(|| "file".into()),
                    doc_type: d.doc_type.clone(),
                    tenant_id: d.tenant_id.clone(),
                    unit_id: d.unit_id.clone(),
                    property_id: d.property_id.clone(),
                    property_group_id: d.property_group_id.clone(),
                    candidate_id: d.candidate_id.clone(),
                    mime_type: d.mime_type.clone().unwrap_or_else(|| "text/plain".into()),
                    bytes: Bytes::from(d.content.clone().unwrap_or_default().into_bytes()),
                };
                out.document_ids.push(a.add_document(&rp, new, &now).id);
            }
            for (event_type, url) in hooks {
                out.webhook_ids.push(a.add_webhook(event_type, url, &now));
            }
            if !msgs.is_empty() {
                let list = Arc::make_mut(&mut a.messages);
                let mut num = list.iter().map(|m| m.num).max().unwrap_or(0);
                for (m, sent_by) in msgs {
                    num += 1;
                    let id = format!("msg-{num}");
                    list.push(message(num, &id, m, sent_by));
                    out.message_ids.push(id);
                }
            }
            out
        })
        .ok_or_else(|| ApiError::bad_request("seed: unknown `token`"))?;
    Ok(Json(out).into_response())
}

fn check_document(i: usize, d: &SeedDocument) -> ApiResult<(&SeedDocument, String)> {
    if !DOCUMENT_TYPES.contains(&d.doc_type.as_str()) {
        return Err(ApiError::bad_request(format!(
            "seed: documents[{i}].type must be one of {}; got `{}`",
            DOCUMENT_TYPES.join(", "),
            d.doc_type
        )));
    }
    let rp = clean_resource_path(d.resource_path.as_deref().unwrap_or("documents"))
        .map_err(|e| ApiError::bad_request(format!("seed: documents[{i}]: {}", e.message)))?;
    Ok((d, rp))
}

fn check_message(i: usize, m: &SeedMessage) -> ApiResult<(&SeedMessage, SentBy)> {
    if m.candidate_id.trim().is_empty() {
        return Err(ApiError::bad_request(format!(
            "seed: messages[{i}].candidateId must not be empty"
        )));
    }
    let sent_by = match m.sent_by.as_deref() {
        None | Some("CANDIDATE") => SentBy::Candidate,
        Some("ADMIN") => SentBy::Admin,
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "seed: messages[{i}].sentBy must be ADMIN or CANDIDATE; got `{other}`"
            )))
        }
    };
    Ok((m, sent_by))
}

fn message(num: u64, id: &str, m: &SeedMessage, sent_by: SentBy) -> Message {
    let attachments = m
        .attachments
        .iter()
        .enumerate()
        .map(|(k, name)| {
            Some(MessageAttachment {
                id: Some(format!("{id}-att-{}", k + 1)),
                name: Some(name.clone()),
                resource_path: Some(format!("messages/{id}/{name}")),
                kind: Some(crate::util::mime_for(name).to_string()),
                size: Some(1024),
            })
        })
        .collect();
    Message {
        num,
        contact_id: m
            .contact_id
            .clone()
            .unwrap_or_else(|| format!("contact-{}", m.candidate_id)),
        listing_id: m
            .listing_id
            .clone()
            .unwrap_or_else(|| format!("listing-{}", m.candidate_id)),
        id: Some(id.to_string()),
        candidate_id: Some(m.candidate_id.clone()),
        sent_by: Some(sent_by),
        user_id: None,
        text: m.text.clone(),
        user: None,
        reply_to_message_id: m.reply_to_message_id.clone(),
        is_read: Some(m.is_read.unwrap_or(false)),
        attachments: Some(attachments),
    }
}
