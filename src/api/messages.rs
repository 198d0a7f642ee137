//! The messages GraphQL query (4.1). Values always travel as variables; only field names
//! (checked against the schema's names) are written into the query text.

use super::json::ObjectWriter;
use super::response::{check_body, LenientText};
use super::url::QueryString;
use super::{check_non_empty, BaseUrl, HttpRequest, Method, RequestBody};
use crate::error::Error;
use crate::model::check_enum;
use crate::model::messages::{
    MessageCheck, MessageFilter, MessagesOptions, ATTACHMENT_FIELDS, MESSAGE_FIELDS,
    SORT_DIRECTIONS,
};
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use std::fmt;

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
            .map_err(|r| Error::invalid(format!("options.fields[{i}]"), r))?;
        if fields.get(..i).is_some_and(|before| before.contains(f)) {
            continue;
        }
        out.push(' ');
        out.push_str(f);
        if *f == "attachments" {
            out.push_str(" { ");
            out.push_str(&ATTACHMENT_FIELDS.join(" "));
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
                    format!("options.userFields[{i}]"),
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
        check_non_empty(&format!("filter.{name}"), value)?;
    }
    if filters.iter().take(3).all(|(_, v)| v.is_none()) {
        return Err(Error::invalid(
            "filter",
            "give at least one of candidateId, contactId or listingId",
        ));
    }
    if let Some(sort) = &options.sort {
        if !is_graphql_name(&sort.field_name) {
            return Err(Error::invalid(
                "options.sort.fieldName",
                "must be a Message field name",
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
            declared.push(format!("${name}: String"));
            in_filter.push(format!("{name}: ${name}"));
            variables.string(name, v);
        }
    }
    let mut input = vec![format!("filter: {{ {} }}", in_filter.join(", "))];
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
    let query = format!(
        "query Messages({}) {{ messages(input: {{ {} }}) {{{selection} }} }}",
        declared.join(", "),
        input.join(", ")
    );
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

/// The `errors` of a GraphQL answer, read leniently (first pass over the body).
#[derive(Debug, Default, PartialEq)]
pub struct GraphqlErrors {
    /// Whether the answer had a non-empty `errors` entry.
    pub present: bool,
    /// The first few `message`s.
    pub messages: Vec<String>,
}

impl<'de> Deserialize<'de> for GraphqlErrors {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Envelope;
        impl<'de> Visitor<'de> for Envelope {
            type Value = GraphqlErrors;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a GraphQL response object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<GraphqlErrors, A::Error> {
                let mut out = GraphqlErrors::default();
                while let Some(LenientText(key)) = map.next_key()? {
                    if key.as_deref() == Some("errors") {
                        out = map.next_value::<ErrorList>()?.0;
                    } else {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(out)
            }
        }
        d.deserialize_map(Envelope)
    }
}

struct ErrorList(GraphqlErrors);

impl<'de> Deserialize<'de> for ErrorList {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ErrorList;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list of GraphQL errors")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ErrorList, A::Error> {
                let mut out = GraphqlErrors::default();
                while let Some(OneError(message)) = seq.next_element()? {
                    out.present = true;
                    if out.messages.len() < 5 {
                        out.messages
                            .push(message.unwrap_or_else(|| "(error without message)".into()));
                    }
                }
                Ok(ErrorList(out))
            }
            fn visit_unit<E: de::Error>(self) -> Result<ErrorList, E> {
                Ok(ErrorList(GraphqlErrors::default()))
            }
            fn visit_none<E: de::Error>(self) -> Result<ErrorList, E> {
                Ok(ErrorList(GraphqlErrors::default()))
            }
            fn visit_some<D2: Deserializer<'de>>(self, d: D2) -> Result<ErrorList, D2::Error> {
                d.deserialize_any(V)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ErrorList, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(ErrorList(GraphqlErrors {
                    present: true,
                    messages: vec!["(malformed errors entry)".into()],
                }))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<ErrorList, E> {
                Ok(ErrorList(GraphqlErrors {
                    present: true,
                    messages: vec![super::response::limit(v, 300)],
                }))
            }
        }
        d.deserialize_any(V)
    }
}

/// One GraphQL error; keeps its `message` if it is text.
struct OneError(Option<String>);

impl<'de> Deserialize<'de> for OneError {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = OneError;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a GraphQL error")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<OneError, A::Error> {
                let mut message = None;
                while let Some(LenientText(key)) = map.next_key()? {
                    if key.as_deref() == Some("message") {
                        message = map.next_value::<LenientText>()?.0;
                    } else {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(OneError(message))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<OneError, E> {
                Ok(OneError(Some(super::response::limit(v, 300))))
            }
            fn visit_unit<E: de::Error>(self) -> Result<OneError, E> {
                Ok(OneError(None))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<OneError, E> {
                Ok(OneError(None))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<OneError, E> {
                Ok(OneError(None))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<OneError, E> {
                Ok(OneError(None))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<OneError, E> {
                Ok(OneError(None))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<OneError, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(OneError(None))
            }
        }
        d.deserialize_any(V)
    }
}

/// First pass: a `graphql` error when the answer (2xx or not) carries `errors`; `Ok(false)`
/// when it has none; `Ok(true)`... never: an answer without errors returns `Ok(())`.
pub fn decode_errors<'de, D: Deserializer<'de>>(status: u16, body: D) -> Result<(), Error> {
    let errors: GraphqlErrors = check_body(QUERY, status, body)?;
    if errors.present {
        return Err(Error::Graphql {
            operation: QUERY,
            messages: errors.messages,
            status,
        });
    }
    Ok(())
}

#[derive(Deserialize)]
struct DataEnvelope {
    data: Option<MessagesData>,
}

#[derive(Deserialize)]
struct MessagesData {
    messages: Option<Vec<Option<MessageCheck>>>,
}

/// Second pass over a 2xx answer without errors: `data.messages` must be a list of
/// `Message`s; returns how many.
pub fn decode_data<'de, D: Deserializer<'de>>(status: u16, body: D) -> Result<usize, Error> {
    let envelope: DataEnvelope = check_body(QUERY, status, body)?;
    match envelope.data.and_then(|d| d.messages) {
        Some(list) => Ok(list.len()),
        None => Err(Error::Decode {
            operation: QUERY,
            status,
            reason: "data.messages is missing or null".into(),
        }),
    }
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
        decode_errors(200, &mut serde_json::Deserializer::from_str(body))?;
        decode_data(200, &mut serde_json::Deserializer::from_str(body))
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
