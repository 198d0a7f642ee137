//! `POST /api/reporting/graphql`: the messages query.

use crate::credentials::Token;
use crate::errors::ApiError;
use crate::model::{Message, SentBy};
use crate::state::AppState;
use async_graphql::{
    Context, EmptyMutation, EmptySubscription, Error, InputObject, Object, Schema,
};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Extension, State};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use axum::routing::{on, MethodFilter, MethodRouter};
use estatekit_vocab::operations::Operation;
use std::cmp::Ordering;
use std::sync::{Arc, OnceLock};

/// The emulator's GraphQL schema type.
pub type EmuSchema = Schema<Query, EmptyMutation, EmptySubscription>;

/// `MessageFilter` input.
#[derive(InputObject, Default, Debug)]
#[graphql(name = "MessageFilter")]
pub struct MessageFilter {
    /// Candidate filter.
    pub candidate_id: Option<String>,
    /// Contact filter.
    pub contact_id: Option<String>,
    /// Listing filter.
    pub listing_id: Option<String>,
    /// Accepted (the vendor's examples send it) but not a filter on its own.
    pub external_contact_id: Option<String>,
}

/// `GraphPaging` input.
#[derive(InputObject, Default, Debug)]
#[graphql(name = "GraphPaging")]
pub struct GraphPaging {
    /// Items to skip.
    pub skip: Option<i32>,
    /// Items to take (all when absent).
    pub take: Option<i32>,
}

/// `GraphSorting` input.
#[derive(InputObject, Default, Debug)]
#[graphql(name = "GraphSorting")]
pub struct GraphSorting {
    /// Message field to sort by.
    pub field_name: Option<String>,
    /// `ASC` or `DESC` (case-insensitive).
    pub direction: Option<String>,
}

/// `MessageFilterPaging` input.
#[derive(InputObject, Default, Debug)]
#[graphql(name = "MessageFilterPaging")]
pub struct MessageFilterPaging {
    /// Filter.
    pub filter: Option<MessageFilter>,
    /// Paging.
    pub paging: Option<GraphPaging>,
    /// Sorting.
    pub sort: Option<GraphSorting>,
}

/// The query root.
pub struct Query;

fn cmp_opt<T: Ord>(a: &Option<T>, b: &Option<T>) -> Ordering {
    a.cmp(b)
}

fn id_num(id: &Option<String>) -> Option<u64> {
    id.as_deref()
        .and_then(|s| s.rsplit('-').next())
        .and_then(|n| n.parse().ok())
}

type Cmp = fn(&Message, &Message) -> Ordering;

fn comparator(field: &str) -> Option<Cmp> {
    Some(match field {
        "id" => |a, b| a.num.cmp(&b.num),
        "candidateId" => |a, b| cmp_opt(&a.candidate_id, &b.candidate_id),
        "sentBy" => |a, b| cmp_opt::<SentBy>(&a.sent_by, &b.sent_by),
        "userId" => |a, b| cmp_opt(&a.user_id, &b.user_id),
        "text" => |a, b| cmp_opt(&a.text, &b.text),
        "replyToMessageId" => {
            |a, b| id_num(&a.reply_to_message_id).cmp(&id_num(&b.reply_to_message_id))
        }
        "isRead" => |a, b| cmp_opt(&a.is_read, &b.is_read),
        _ => return None,
    })
}

#[Object]
impl Query {
    /// Messages matching the filter (at least one of candidateId, contactId, listingId).
    async fn messages(
        &self,
        ctx: &Context<'_>,
        input: Option<MessageFilterPaging>,
    ) -> async_graphql::Result<Option<Vec<Option<Message>>>> {
        let all = ctx.data::<Arc<Vec<Message>>>()?;
        let input = input.unwrap_or_default();
        let filter = input.filter.unwrap_or_default();
        if filter.candidate_id.is_none()
            && filter.contact_id.is_none()
            && filter.listing_id.is_none()
        {
            return Err(Error::new(
                "at least one of `candidateId`, `contactId` or `listingId` must be supplied in `input.filter`",
            ));
        }
        let paging = input.paging.unwrap_or_default();
        let skip = paging.skip.unwrap_or(0);
        if skip < 0 {
            return Err(Error::new("`paging.skip` must not be negative"));
        }
        let take = paging.take;
        if take.is_some_and(|t| t < 0) {
            return Err(Error::new("`paging.take` must not be negative"));
        }
        let sort = match input.sort {
            Some(s) => {
                let field = s.field_name.unwrap_or_else(|| "id".into());
                let cmp = comparator(&field).ok_or_else(|| {
                    Error::new(format!(
                        "unknown `sort.fieldName` `{field}` (one of id, candidateId, sentBy, userId, text, replyToMessageId, isRead)"
                    ))
                })?;
                let dir = s.direction.unwrap_or_else(|| "ASC".into());
                let desc = match dir.to_ascii_uppercase().as_str() {
                    "ASC" => false,
                    "DESC" => true,
                    _ => {
                        return Err(Error::new(format!(
                            "unknown `sort.direction` `{dir}` (ASC or DESC)"
                        )))
                    }
                };
                Some((cmp, desc))
            }
            None => None,
        };
        let mut hits: Vec<&Message> = all
            .iter()
            .filter(|m| {
                filter
                    .candidate_id
                    .as_ref()
                    .is_none_or(|c| m.candidate_id.as_ref() == Some(c))
                    && filter
                        .contact_id
                        .as_ref()
                        .is_none_or(|c| &m.contact_id == c)
                    && filter
                        .listing_id
                        .as_ref()
                        .is_none_or(|c| &m.listing_id == c)
            })
            .collect();
        match sort {
            Some((cmp, desc)) => hits.sort_by(|a, b| {
                let o = cmp(a, b).then_with(|| a.num.cmp(&b.num));
                if desc {
                    o.reverse()
                } else {
                    o
                }
            }),
            None => hits.sort_by_key(|m| m.num),
        }
        let skip = usize::try_from(skip).unwrap_or(usize::MAX);
        let take = take.map_or(usize::MAX, |t| usize::try_from(t).unwrap_or(usize::MAX));
        Ok(Some(
            hits.into_iter()
                .skip(skip)
                .take(take)
                .map(|m| Some(m.clone()))
                .collect(),
        ))
    }
}

/// The schema (introspection on), built once per process: it holds no state (each request
/// carries its account's messages).
pub fn schema() -> &'static EmuSchema {
    static SCHEMA: OnceLock<EmuSchema> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        Schema::build(Query, EmptyMutation, EmptySubscription)
            .limit_depth(64)
            .limit_recursive_depth(64)
            .finish()
    })
}

/// The schema's SDL (what docs/messages.graphql holds), ending with one newline.
pub fn sdl() -> String {
    format!("{}\n", schema().sdl().trim_end())
}

/// Parses a GraphQL request body: a JSON object with a string `query`.
fn parse_request(body: &[u8]) -> Result<async_graphql::Request, ApiError> {
    let v: serde_json::Value = serde_json::from_slice(body).map_err(|e| {
        ApiError::bad_request(format!(
            "invalid GraphQL request body (expected JSON with `query` and `variables`): {e}"
        ))
    })?;
    let obj = v
        .as_object()
        .ok_or_else(|| ApiError::bad_request("GraphQL request body must be a JSON object"))?;
    match obj.get("query") {
        Some(serde_json::Value::String(q)) if !q.trim().is_empty() => {}
        Some(serde_json::Value::String(_)) | None | Some(serde_json::Value::Null) => {
            return Err(ApiError::bad_request("missing GraphQL `query`"))
        }
        Some(_) => return Err(ApiError::bad_request("GraphQL `query` must be a string")),
    }
    match obj.get("variables") {
        None | Some(serde_json::Value::Null) | Some(serde_json::Value::Object(_)) => {}
        Some(_) => {
            return Err(ApiError::bad_request(
                "GraphQL `variables` must be an object",
            ))
        }
    }
    serde_json::from_value(v)
        .map_err(|e| ApiError::bad_request(format!("invalid GraphQL request body: {e}")))
}

/// Handler of `POST /api/reporting/graphql`.
pub async fn handler(
    State(state): State<AppState>,
    Extension(token): Extension<Token>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let body = match body {
        Ok(b) => b,
        Err(e) => return crate::errors::body_rejection(e).into_response(),
    };
    let ct = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if !ct.to_ascii_lowercase().contains("json") {
        return ApiError::bad_request("`Content-Type` must be application/json").into_response();
    }
    let req = match parse_request(&body) {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    let Some(messages) = state.with_account(&token.0, |a| a.messages.clone()) else {
        return ApiError::unauthorized("unknown access token").into_response();
    };
    let resp = schema().execute(req.data(messages)).await;
    let body = match serde_json::to_vec(&resp) {
        Ok(b) => b,
        Err(e) => {
            return ApiError::new(
                axum::http::StatusCode::INTERNAL_SERVER_ERROR,
                format!("GraphQL response could not be encoded: {e}"),
            )
            .into_response()
        }
    };
    let mut r = Response::new(axum::body::Body::from(body));
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("application/graphql-response+json"),
    );
    r.headers_mut().extend(resp.http_headers);
    r
}

/// The handler of each operation of the table this module answers (emulator/src/routes.rs routes
/// it at its row's route, `filter` being the route's method).
pub fn answering(op: Operation, filter: MethodFilter) -> Option<MethodRouter<AppState>> {
    match op {
        Operation::ListMessages => Some(on(filter, handler)),
        _ => None,
    }
}
