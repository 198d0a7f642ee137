//! The messages GraphQL query (4.1). Values always travel as variables; only field names
//! (the schema's own, or checked to be GraphQL names) are written into the query text.

use super::check::{check, read, Checked};
use super::status::{GraphqlEnvelope, GraphqlErrors};
use super::{check_non_empty, BaseUrl, HttpRequest, JsonBody, RequestBody};
use crate::error::Error;
use crate::model::messages::{
    GraphPaging, GraphSorting, Message, MessageField, MessageFilter, MessagesOptions,
};
use crate::model::Unread;
use estatekit_vocab::operations::Operation;
use serde::{Deserialize, Serialize};

/// The five `MessageAttachment` fields, all selected whenever `attachments` is.
const ATTACHMENT_SELECTION: &str = "{ id name resourcePath type size }";

/// The body of a GraphQL request.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GraphqlRequest {
    /// The query text.
    pub query: String,
    /// Its variables.
    pub variables: MessagesVariables,
}

/// The variables of the messages query: only those supplied are declared and sent.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MessagesVariables {
    /// Filter variable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub candidate_id: Option<String>,
    /// Filter variable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contact_id: Option<String>,
    /// Filter variable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub listing_id: Option<String>,
    /// Filter variable (undocumented; see the interface's rule 2).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub external_contact_id: Option<String>,
    /// `GraphPaging`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub paging: Option<GraphPaging>,
    /// `GraphSorting`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sort: Option<GraphSorting>,
}

fn is_graphql_name(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
}

/// The selection set for `options.fields` / `options.userFields`.
fn selection(options: &MessagesOptions) -> Result<String, Error> {
    let fields: &[MessageField] = match &options.fields {
        Some(f) if f.is_empty() => {
            return Err(Error::invalid(
                "options.fields",
                "must name at least one field",
            ))
        }
        Some(f) => f,
        None => &MessageField::ALL,
    };
    let mut out = String::new();
    for (i, field) in fields.iter().enumerate() {
        if fields.get(..i).is_some_and(|before| before.contains(field)) {
            continue;
        }
        out.push(' ');
        out.push_str(field.name());
        if *field == MessageField::Attachments {
            out.push(' ');
            out.push_str(ATTACHMENT_SELECTION);
        }
    }
    if let Some(user_fields) = &options.user_fields {
        if user_fields.is_empty() {
            return Err(Error::invalid(
                "options.userFields",
                "must name at least one field",
            ));
        }
        if let Some(i) = user_fields.iter().position(|f| !is_graphql_name(f)) {
            return Err(Error::invalid(
                format!("options.userFields[{i}]"),
                "must be a GraphQL field name (letters, digits, _)",
            ));
        }
        out.push_str(&format!(" user {{ {} }}", user_fields.join(" ")));
    }
    Ok(out)
}

/// `POST /api/reporting/graphql` with the `messages` query.
pub fn request(
    base: &BaseUrl,
    filter: &MessageFilter,
    options: &MessagesOptions,
) -> Result<HttpRequest, Error> {
    let filters = [
        ("candidateId", &filter.candidate_id),
        ("contactId", &filter.contact_id),
        ("listingId", &filter.listing_id),
        ("externalContactId", &filter.external_contact_id),
    ];
    for (name, value) in filters {
        check_non_empty(&format!("filter.{name}"), value.as_deref())?;
    }
    if filters.iter().take(3).all(|(_, v)| v.is_none()) {
        return Err(Error::invalid(
            "filter",
            "give at least one of candidateId, contactId or listingId",
        ));
    }
    if let Some(p) = &options.paging {
        // GraphQL `Int` is 32-bit signed.
        for (name, value) in [("skip", p.skip), ("take", p.take)] {
            if value.is_some_and(|n| n > i32::MAX as u32) {
                return Err(Error::invalid(
                    format!("options.paging.{name}"),
                    "must be at most 2147483647 (GraphQL Int)",
                ));
            }
        }
    }
    if let Some(sort) = &options.sort {
        if !is_graphql_name(&sort.field_name) {
            return Err(Error::invalid(
                "options.sort.fieldName",
                "must be a field name (letters, digits, _)",
            ));
        }
    }
    let selection = selection(options)?;

    let mut declared = Vec::new();
    let mut in_filter = Vec::new();
    for (name, value) in filters {
        if value.is_some() {
            declared.push(format!("${name}: String"));
            in_filter.push(format!("{name}: ${name}"));
        }
    }
    let mut input = vec![format!("filter: {{ {} }}", in_filter.join(", "))];
    if options.paging.is_some() {
        declared.push("$paging: GraphPaging".into());
        input.push("paging: $paging".into());
    }
    if options.sort.is_some() {
        declared.push("$sort: GraphSorting".into());
        input.push("sort: $sort".into());
    }
    let query = format!(
        "query Messages({}) {{ messages(input: {{ {} }}) {{{selection} }} }}",
        declared.join(", "),
        input.join(", ")
    );
    let variables = MessagesVariables {
        candidate_id: filter.candidate_id.clone(),
        contact_id: filter.contact_id.clone(),
        listing_id: filter.listing_id.clone(),
        external_contact_id: filter.external_contact_id.clone(),
        paging: options.paging.clone(),
        sort: options.sort.clone(),
    };
    let body = RequestBody::Json(JsonBody::Graphql(GraphqlRequest { query, variables }));
    Ok(HttpRequest::to(Operation::ListMessages, base).carrying(body))
}

/// The `graphql` error of an answer whose `errors` has messages.
fn graphql(status: u16, messages: Option<Vec<String>>) -> Result<(), Error> {
    match messages {
        Some(messages) => Err(Error::Graphql {
            operation: Operation::ListMessages.phrase(),
            messages,
            status,
        }),
        None => Ok(()),
    }
}

/// The check of a non-2xx answer's bytes: a `graphql` error when it carries `errors`.
pub fn check_errors(status: u16, body: &[u8]) -> Result<(), Error> {
    graphql(
        status,
        read::<GraphqlEnvelope>(body).and_then(GraphqlEnvelope::messages),
    )
}

/// The check of a 2xx answer's bytes, in one pass: a `graphql` error when it carries `errors`
/// (whatever `data` holds), else `data.messages` must be a list of `Message`s (or nulls), their
/// strings checked and never copied; returns how many there are.
pub fn check_answer(status: u16, body: &[u8]) -> Result<usize, Error> {
    match check::<Answer<Unread>>(Operation::ListMessages.phrase(), status, "", body) {
        Ok(mut answer) => {
            graphql(
                status,
                answer.errors.take().and_then(GraphqlErrors::messages),
            )?;
            answer.count(status)
        }
        // `errors` wins over a `data` that does not pass.
        Err(error) => check_errors(status, body).and(Err(error)),
    }
}

/// The part of a GraphQL answer the client checks (`S`: how the messages' strings are read).
#[derive(Deserialize)]
#[serde(remote = "Self")]
struct Answer<S> {
    #[serde(default)]
    errors: Option<GraphqlErrors>,
    #[serde(default)]
    data: Option<AnswerData<S>>,
}

#[derive(Deserialize)]
#[serde(remote = "Self")]
struct AnswerData<S> {
    #[serde(default)]
    messages: Option<Checked<Option<Message<S>>>>,
}

crate::objects_only!(Answer<S>, AnswerData<S>);

impl<S> Answer<S> {
    /// How many messages `data.messages` holds, or the `decode` error for a missing one.
    fn count(self, status: u16) -> Result<usize, Error> {
        let missing = |what: &str| Error::Decode {
            operation: Operation::ListMessages.phrase(),
            status,
            reason: format!("{what} is missing or null"),
        };
        self.data
            .ok_or_else(|| missing("data"))?
            .messages
            .map(|messages| messages.len)
            .ok_or_else(|| missing("data.messages"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::HttpMethod;
    use crate::error::ApiErrorKind;
    use crate::model::messages::SortDirection;
    use serde_json::{json, Value};

    fn base() -> BaseUrl {
        BaseUrl::normalised("https://acme.example.com")
    }

    fn by_candidate(id: &str) -> MessageFilter {
        MessageFilter {
            candidate_id: Some(id.into()),
            ..MessageFilter::default()
        }
    }

    fn body_of(r: &HttpRequest) -> Value {
        match &r.body {
            RequestBody::Json(b) => serde_json::to_value(b).unwrap(),
            other => panic!("expected JSON, got {other:?}"),
        }
    }

    fn options(json: Value) -> MessagesOptions {
        serde_json::from_value(json).unwrap()
    }

    #[test]
    fn default_request_is_exact() {
        let r = request(&base(), &by_candidate("c-1"), &MessagesOptions::default()).unwrap();
        assert_eq!(r.method, HttpMethod::Post);
        assert_eq!(r.url, "https://acme.example.com/api/reporting/graphql");
        assert_eq!(r.spec.resend, crate::error::Resend::Idempotent);
        assert_eq!(
            body_of(&r),
            json!({
                "query": "query Messages($candidateId: String) { messages(input: { filter: { candidateId: $candidateId } }) { id candidateId sentBy userId text replyToMessageId isRead attachments { id name resourcePath type size } } }",
                "variables": {"candidateId": "c-1"}
            })
        );
    }

    #[test]
    fn only_supplied_variables_are_declared() {
        let filter = MessageFilter {
            listing_id: Some("l\"}) { evil }".into()),
            external_contact_id: Some("x-9".into()),
            ..MessageFilter::default()
        };
        let opts = options(json!({
            "fields": ["id", "text", "id"],
            "userFields": ["id", "firstName"],
            "paging": {"skip": 10, "take": 5},
            "sort": {"fieldName": "id", "direction": "DESC"}
        }));
        assert_eq!(
            opts.sort.as_ref().unwrap().direction,
            Some(SortDirection::Desc)
        );
        let r = request(&base(), &filter, &opts).unwrap();
        assert_eq!(
            body_of(&r),
            json!({
                "query": "query Messages($listingId: String, $externalContactId: String, $paging: GraphPaging, $sort: GraphSorting) { messages(input: { filter: { listingId: $listingId, externalContactId: $externalContactId }, paging: $paging, sort: $sort }) { id text user { id firstName } } }",
                "variables": {
                    "listingId": "l\"}) { evil }",
                    "externalContactId": "x-9",
                    "paging": {"skip": 10, "take": 5},
                    "sort": {"fieldName": "id", "direction": "DESC"}
                }
            })
        );
    }

    #[test]
    fn invalid_input_is_rejected_before_sending() {
        let cases: Vec<(MessageFilter, Value, &str)> = vec![
            (MessageFilter::default(), json!({}), "invalid filter:"),
            (
                MessageFilter {
                    external_contact_id: Some("x".into()),
                    ..MessageFilter::default()
                },
                json!({}),
                "invalid filter:",
            ),
            (by_candidate(""), json!({}), "invalid filter.candidateId:"),
            (
                by_candidate("c"),
                json!({"fields": []}),
                "invalid options.fields:",
            ),
            (
                by_candidate("c"),
                json!({"userFields": ["id } secret {"]}),
                "invalid options.userFields[0]:",
            ),
            (
                by_candidate("c"),
                json!({"sort": {"fieldName": "id desc"}}),
                "invalid options.sort.fieldName:",
            ),
            (
                by_candidate("c"),
                json!({"paging": {"take": 2_147_483_648u64}}),
                "invalid options.paging.take:",
            ),
        ];
        for (filter, opts, prefix) in cases {
            let e = request(&base(), &filter, &options(opts)).unwrap_err();
            assert_eq!(e.kind(), ApiErrorKind::InvalidInput);
            assert!(e.to_string().starts_with(prefix), "{e} / {prefix}");
        }
        for bad in [
            json!({"fields": ["user"]}),
            json!({"sort": {"fieldName": "id", "direction": "UP"}}),
            json!({"paging": {"take": -1}}),
        ] {
            assert!(
                serde_json::from_value::<MessagesOptions>(bad.clone()).is_err(),
                "{bad}"
            );
        }
    }

    fn decode(body: &str) -> Result<usize, Error> {
        check_answer(200, body.as_bytes())
    }

    #[test]
    fn decodes_messages_tolerantly() {
        let body = r#"{"data":{"messages":[
            {"id":"m1","candidateId":"c","sentBy":"ADMIN","userId":null,"text":"hi","isRead":true,
             "replyToMessageId":null,"user":{"id":"u","anything":[1]},"attachments":[
               {"id":"a","name":"x.pdf","resourcePath":"r","type":"application/pdf","size":12}, null]},
            {"id":"m2","sentBy":"BOT","newField":{"x":1}},
            null
        ]}}"#;
        assert_eq!(decode(body), Ok(3));
        assert_eq!(decode(r#"{"data":{"messages":[]},"errors":[]}"#), Ok(0));
    }

    #[test]
    fn graphql_errors_win_over_data() {
        let e = decode(
            r#"{"data":null,"errors":[{"message":"filter required","path":["messages"]},{"x":1}]}"#,
        )
        .unwrap_err();
        assert_eq!(e.kind(), ApiErrorKind::Graphql);
        assert_eq!(e.status(), Some(200));
        assert!(
            e.to_string()
                .contains("filter required; (error without message)"),
            "{e}"
        );
        let e = decode(r#"{"errors":"boom"}"#).unwrap_err();
        assert_eq!(e.kind(), ApiErrorKind::Graphql);
        let e =
            decode(r#"{"data":{"messages":[{"isRead":"yes"}]},"errors":[{"message":"partial"}]}"#)
                .unwrap_err();
        assert_eq!(e.kind(), ApiErrorKind::Graphql);
    }

    #[test]
    fn wrong_shapes_are_decode_errors() {
        for body in [
            "[]",
            "null",
            r#"{"data":null}"#,
            r#"{"data":{"messages":null}}"#,
            r#"{"data":{"messages":{}}}"#,
            r#"{"data":{"messages":[{"isRead":"yes"}]}}"#,
            r#"{"data":{"messages":[{"attachments":[{"size":"1kb"}]}]}}"#,
            r#"{"data":{"messages":[{"user":"u1"}]}}"#,
            r#"{"data":{"messages":[5]}}"#,
        ] {
            let e = decode(body).unwrap_err();
            assert_eq!(e.kind(), ApiErrorKind::Decode, "{body}: {e}");
        }
        let e = decode(r#"{"data":{"messages":[{"id":"1"},{"isRead":"yes"}]}}"#).unwrap_err();
        assert!(e.to_string().contains("data.messages[1].isRead"), "{e}");
    }
}
