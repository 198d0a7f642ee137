//! The messages GraphQL query (4.1). Values always travel as variables; only field names
//! (checked against the schema's names) are written into the query text.

use super::json::ObjectWriter;
use super::json_view::{JsonView, Kind};
use super::response::{check_value, lenient_text, limit};
use super::schema::Step;
use super::url::QueryString;
use super::{check_non_empty, BaseUrl, HttpRequest, Method, RequestBody};
use crate::error::Error;
use crate::model::check_enum;
use crate::model::messages::{
    MessageFilter, MessagesOptions, ATTACHMENT_FIELDS, MESSAGE_FIELDS, MESSAGE_LIST,
    SORT_DIRECTIONS,
};
use crate::text::{concat, index, join};

const PATH: &str = "/api/reporting/graphql";

/// Operation name of `messages`.
pub const QUERY: &str = "messages query";

fn is_graphql_name(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
}

/// The selection set for `options.fields` / `options.userFields`.
fn selection(options: &MessagesOptions) -> Result<String, Error> {
    let fields: Vec<&str> = match &options.fields {
        Some(f) if f.is_empty() => {
            return Err(Error::invalid(
                "options.fields",
                "must name at least one field",
            ))
        }
        Some(f) => f.iter().map(String::as_str).collect(),
        None => MESSAGE_FIELDS.to_vec(),
    };
    let mut out = String::new();
    for (i, f) in fields.iter().enumerate() {
        if *f == "user" {
            return Err(Error::invalid(
                "options.fields",
                "select user through options.userFields (the fields of User are not documented)",
            ));
        }
        check_enum(f, &MESSAGE_FIELDS, "Message field")
            .map_err(|r| Error::invalid(concat(&["options.fields", &index(i)]), r))?;
        if fields.get(..i).is_some_and(|before| before.contains(f)) {
            continue;
        }
        out.push(' ');
        out.push_str(f);
        if *f == "attachments" {
            out.push_str(" { ");
            out.push_str(&join(&ATTACHMENT_FIELDS, " "));
            out.push_str(" }");
        }
    }
    if let Some(user_fields) = &options.user_fields {
        if user_fields.is_empty() {
            return Err(Error::invalid(
                "options.userFields",
                "must name at least one field",
            ));
        }
        out.push_str(" user {");
        for (i, f) in user_fields.iter().enumerate() {
            if !is_graphql_name(f) {
                return Err(Error::invalid(
                    concat(&["options.userFields", &index(i)]),
                    "must be a GraphQL field name (letters, digits, _)",
                ));
            }
            out.push(' ');
            out.push_str(f);
        }
        out.push_str(" }");
    }
    Ok(out)
}

/// `POST /api/reporting/graphql` with the `messages` query. Only supplied variables are
/// declared and sent.
pub fn request(
    base: &BaseUrl,
    filter: &MessageFilter,
    options: &MessagesOptions,
) -> Result<HttpRequest, Error> {
    let filters = [
        ("candidateId", filter.candidate_id.as_deref()),
        ("contactId", filter.contact_id.as_deref()),
        ("listingId", filter.listing_id.as_deref()),
        ("externalContactId", filter.external_contact_id.as_deref()),
    ];
    for (name, value) in filters {
        check_non_empty(&concat(&["filter.", name]), value)?;
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
                    concat(&["options.paging.", name]),
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
        if let Some(d) = &sort.direction {
            check_enum(d, &SORT_DIRECTIONS, "sort direction")
                .map_err(|r| Error::invalid("options.sort.direction", r))?;
        }
    }
    let selection = selection(options)?;

    let mut declared = Vec::new();
    let mut in_filter = Vec::new();
    let mut variables = ObjectWriter::new();
    for (name, value) in filters {
        if let Some(v) = value {
            declared.push(concat(&["$", name, ": String"]));
            in_filter.push(concat(&[name, ": $", name]));
            variables.string(name, v);
        }
    }
    let mut input = vec![concat(&["filter: { ", &join(&in_filter, ", "), " }"])];
    if let Some(p) = &options.paging {
        let mut paging = ObjectWriter::new();
        if let Some(s) = p.skip {
            paging.number("skip", s);
        }
        if let Some(t) = p.take {
            paging.number("take", t);
        }
        declared.push("$paging: GraphPaging".into());
        input.push("paging: $paging".into());
        variables.raw("paging", &paging.finish());
    }
    if let Some(s) = &options.sort {
        let mut sort = ObjectWriter::new();
        sort.string("fieldName", &s.field_name)
            .opt_string("direction", s.direction.as_deref());
        declared.push("$sort: GraphSorting".into());
        input.push("sort: $sort".into());
        variables.raw("sort", &sort.finish());
    }
    let query = concat(&[
        "query Messages(",
        &join(&declared, ", "),
        ") { messages(input: { ",
        &join(&input, ", "),
        " }) {",
        &selection,
        " } }",
    ]);
    let mut body = ObjectWriter::new();
    body.string("query", &query)
        .raw("variables", &variables.finish());
    Ok(HttpRequest {
        operation: QUERY,
        method: Method::Post,
        url: base.join(PATH, &QueryString::default()),
        body: RequestBody::Json(body.finish()),
        retry_safe: true,
    })
}

/// The messages of a GraphQL `errors` entry when it is present and not empty (at most five;
/// an entry that is not a list still counts as an error).
pub fn graphql_errors<V: JsonView>(body: &V) -> Option<Vec<String>> {
    let errors = body.get("errors")?;
    let message_of = |e: &V| match e.kind() {
        Kind::String => e.text().map(|t| limit(&t, 300)),
        Kind::Object => e.get("message").and_then(|m| lenient_text(&m)),
        _ => None,
    };
    match errors.kind() {
        Kind::Null => None,
        Kind::Array if errors.is_empty() => None,
        Kind::Array => Some(
            (0..errors.len().min(5))
                .map(|i| {
                    errors
                        .at(i)
                        .and_then(|e| message_of(&e))
                        .unwrap_or_else(|| "(error without message)".into())
                })
                .collect(),
        ),
        _ => Some(vec![
            message_of(&errors).unwrap_or_else(|| "(malformed errors entry)".into())
        ]),
    }
}

/// First check of any answer (2xx or not): a `graphql` error when it carries `errors`.
pub fn decode_errors<V: JsonView>(status: u16, body: &V) -> Result<(), Error> {
    match graphql_errors(body) {
        Some(messages) => Err(Error::Graphql {
            operation: QUERY,
            messages,
            status,
        }),
        None => Ok(()),
    }
}

/// Second check of a 2xx answer without errors: `data.messages` must be a list of
/// `Message`s; returns it.
pub fn decode_data<V: JsonView>(status: u16, body: &V) -> Result<V, Error> {
    let missing = |what: &str| Error::Decode {
        operation: QUERY,
        status,
        reason: concat(&[what, " is missing or null"]),
    };
    if body.kind() != Kind::Object {
        return Err(Error::Decode {
            operation: QUERY,
            status,
            reason: concat(&[
                "expected a GraphQL response object, got ",
                body.kind().described(),
            ]),
        });
    }
    let data = body
        .get("data")
        .filter(|d| d.kind() != Kind::Null)
        .ok_or_else(|| missing("data"))?;
    let messages = data
        .get("messages")
        .filter(|m| m.kind() != Kind::Null)
        .ok_or_else(|| missing("data.messages"))?;
    check_value(
        QUERY,
        status,
        &messages,
        &MESSAGE_LIST,
        &[Step::key("data"), Step::key("messages")],
    )?;
    Ok(messages)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;
    use crate::model::messages::{Paging, Sort};

    fn base() -> BaseUrl {
        BaseUrl::parse("https://acme.example.com").unwrap()
    }

    fn by_candidate(id: &str) -> MessageFilter {
        MessageFilter {
            candidate_id: Some(id.into()),
            ..MessageFilter::default()
        }
    }

    fn body_of(r: &HttpRequest) -> serde_json::Value {
        match &r.body {
            RequestBody::Json(t) => serde_json::from_str(t).unwrap(),
            other => panic!("expected JSON, got {other:?}"),
        }
    }

    #[test]
    fn default_request_is_exact() {
        let r = request(&base(), &by_candidate("c-1"), &MessagesOptions::default()).unwrap();
        assert_eq!(r.method, Method::Post);
        assert_eq!(r.url, "https://acme.example.com/api/reporting/graphql");
        assert!(r.retry_safe);
        assert_eq!(
            body_of(&r),
            serde_json::json!({
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
        let options = MessagesOptions {
            fields: Some(vec!["id".into(), "text".into(), "id".into()]),
            user_fields: Some(vec!["id".into(), "firstName".into()]),
            paging: Some(Paging {
                skip: Some(10),
                take: Some(5),
            }),
            sort: Some(Sort {
                field_name: "id".into(),
                direction: Some("DESC".into()),
            }),
            ..MessagesOptions::default()
        };
        let r = request(&base(), &filter, &options).unwrap();
        assert_eq!(
            body_of(&r),
            serde_json::json!({
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
        let cases: Vec<(MessageFilter, MessagesOptions, &str)> = vec![
            (
                MessageFilter::default(),
                MessagesOptions::default(),
                "invalid filter:",
            ),
            (
                MessageFilter {
                    external_contact_id: Some("x".into()),
                    ..MessageFilter::default()
                },
                MessagesOptions::default(),
                "invalid filter:",
            ),
            (
                by_candidate(""),
                MessagesOptions::default(),
                "invalid filter.candidateId:",
            ),
            (
                by_candidate("c"),
                MessagesOptions {
                    fields: Some(vec!["id".into(), "nope".into()]),
                    ..MessagesOptions::default()
                },
                "invalid options.fields[1]:",
            ),
            (
                by_candidate("c"),
                MessagesOptions {
                    fields: Some(vec!["user".into()]),
                    ..MessagesOptions::default()
                },
                "invalid options.fields:",
            ),
            (
                by_candidate("c"),
                MessagesOptions {
                    fields: Some(vec![]),
                    ..MessagesOptions::default()
                },
                "invalid options.fields:",
            ),
            (
                by_candidate("c"),
                MessagesOptions {
                    user_fields: Some(vec!["id } secret {".into()]),
                    ..MessagesOptions::default()
                },
                "invalid options.userFields[0]:",
            ),
            (
                by_candidate("c"),
                MessagesOptions {
                    sort: Some(Sort {
                        field_name: "id".into(),
                        direction: Some("UP".into()),
                    }),
                    ..MessagesOptions::default()
                },
                "invalid options.sort.direction:",
            ),
            (
                by_candidate("c"),
                MessagesOptions {
                    sort: Some(Sort {
                        field_name: "id desc".into(),
                        direction: None,
                    }),
                    ..MessagesOptions::default()
                },
                "invalid options.sort.fieldName:",
            ),
        ];
        for (filter, options, prefix) in cases {
            let e = request(&base(), &filter, &options).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::InvalidInput);
            assert!(e.to_string().starts_with(prefix), "{e} / {prefix}");
        }
    }

    fn decode(body: &str) -> Result<usize, Error> {
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        decode_errors(200, &&v)?;
        decode_data(200, &&v).map(|m| m.len())
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
        assert_eq!(e.kind(), ErrorKind::Graphql);
        assert_eq!(e.status(), Some(200));
        assert!(
            e.to_string()
                .contains("filter required; (error without message)"),
            "{e}"
        );
        let e = decode(r#"{"errors":"boom"}"#).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Graphql);
        let e =
            decode(r#"{"data":{"messages":[{"isRead":"yes"}]},"errors":[{"message":"partial"}]}"#)
                .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Graphql);
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
            assert_eq!(e.kind(), ErrorKind::Decode, "{body}: {e}");
        }
        let e = decode(r#"{"data":{"messages":[{"id":"1"},{"isRead":"yes"}]}}"#).unwrap_err();
        assert!(e.to_string().contains("data.messages[1].isRead"), "{e}");
    }
}
