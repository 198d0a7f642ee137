//! What a failed answer says: non-2xx statuses into [`Error`]s, `Retry-After`, error bodies and
//! GraphQL `errors` read leniently (from the answer's bytes, by [`super::check::read`]). (Also,
//! for the code that reads a caller's input, the wording of serde's refusals: [`serde_message`].)

use super::platform::{decimal, http_date_ms};
use crate::error::{limit, Error};
use serde::de::{self, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};
use std::fmt;

/// What the transport read from an answer, apart from the body.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ResponseHead<'a> {
    /// HTTP status.
    pub status: u16,
    /// `Retry-After`, when readable.
    pub retry_after: Option<&'a str>,
    /// `X-RateLimit-Reset` (seconds until the window resets), when readable.
    pub rate_limit_reset: Option<&'a str>,
}

/// A value of an error body read leniently: a string, an integer, or the strings directly
/// inside an array (joined by "; "); anything else reads as nothing. Nested containers are
/// skipped without being looked into, so a hostile body nested 100,000 levels deep costs no
/// recursion (serde's untagged enums would buffer and recurse into it).
enum Lenient {
    Text(String),
    Texts(Vec<String>),
    Nothing,
}

impl Lenient {
    fn text(self) -> Option<String> {
        match self {
            Lenient::Text(t) => Some(t),
            Lenient::Texts(parts) if !parts.is_empty() => Some(parts.join("; ")),
            Lenient::Texts(_) | Lenient::Nothing => None,
        }
    }
}

/// Skips the rest of a sequence without looking into its elements.
fn skip_seq<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<(), A::Error> {
    while seq.next_element::<IgnoredAny>()?.is_some() {}
    Ok(())
}

/// Skips the rest of a map without looking into its values.
fn skip_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<(), A::Error> {
    while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
    Ok(())
}

/// A string element of an array, or nothing (other elements are skipped unread).
struct TextItem(Option<String>);

impl<'de> Deserialize<'de> for TextItem {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = TextItem;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any value")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<TextItem, E> {
                Ok(TextItem(Some(limit(v, 500))))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<TextItem, A::Error> {
                skip_seq(seq).map(|()| TextItem(None))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<TextItem, A::Error> {
                skip_map(map).map(|()| TextItem(None))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<TextItem, E> {
                Ok(TextItem(None))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<TextItem, E> {
                Ok(TextItem(None))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<TextItem, E> {
                Ok(TextItem(None))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<TextItem, E> {
                Ok(TextItem(None))
            }
            fn visit_unit<E: de::Error>(self) -> Result<TextItem, E> {
                Ok(TextItem(None))
            }
        }
        deserializer.deserialize_any(V)
    }
}

/// A whole number as text (JavaScript numbers are floats: `5.0` reads as `5`).
fn whole(n: f64) -> Lenient {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        Lenient::Text(format!("{}", n as i64))
    } else {
        Lenient::Nothing
    }
}

impl<'de> Deserialize<'de> for Lenient {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Lenient;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any value")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Lenient, E> {
                Ok(Lenient::Text(limit(v, 500)))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Lenient, E> {
                Ok(Lenient::Text(v.to_string()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Lenient, E> {
                Ok(Lenient::Text(v.to_string()))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Lenient, E> {
                Ok(whole(v))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Lenient, E> {
                Ok(Lenient::Nothing)
            }
            fn visit_unit<E: de::Error>(self) -> Result<Lenient, E> {
                Ok(Lenient::Nothing)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Lenient, A::Error> {
                let mut parts = Vec::new();
                while let Some(TextItem(text)) = seq.next_element()? {
                    if parts.len() < 10 {
                        parts.extend(text);
                    }
                }
                Ok(Lenient::Texts(parts))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Lenient, A::Error> {
                skip_map(map).map(|()| Lenient::Nothing)
            }
        }
        deserializer.deserialize_any(V)
    }
}

/// The members of an error body the client looks at.
#[derive(Deserialize)]
#[serde(remote = "Self")]
struct ErrorFields {
    #[serde(default)]
    code: Option<Lenient>,
    #[serde(default)]
    error: Option<Lenient>,
    #[serde(default)]
    message: Option<Lenient>,
    #[serde(default)]
    error_description: Option<Lenient>,
}

/// The service's error body, read leniently: `{code, statusCode, message}` (REST),
/// `{error, error_description}` (OAuth); any other shape yields empty fields.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ErrorBody {
    /// `code` (or `error`).
    pub code: Option<String>,
    /// `message` (a string, or strings joined by "; ") or `error_description`.
    pub message: Option<String>,
}

crate::objects_only!(ErrorFields);

impl ErrorBody {
    /// Reads the fields it knows from an answer's bytes (JSON of any shape, or not JSON).
    pub fn from_answer(body: &[u8]) -> ErrorBody {
        super::check::read::<ErrorFields>(body)
            .map(ErrorBody::from)
            .unwrap_or_default()
    }
}

impl From<ErrorFields> for ErrorBody {
    fn from(f: ErrorFields) -> ErrorBody {
        let text = |v: Option<Lenient>| v.and_then(Lenient::text);
        ErrorBody {
            code: text(f.code).or_else(|| text(f.error)),
            message: text(f.message).or_else(|| text(f.error_description)),
        }
    }
}

/// One GraphQL error: its message (a string, or an object's `message`), if it has one.
pub(crate) struct GraphqlError(Option<String>);

/// A GraphQL `errors` entry: normally a list, but any non-null value counts as an error.
pub(crate) enum GraphqlErrors {
    List(Vec<GraphqlError>),
    One(GraphqlError),
}

/// Reads an object's `message` leniently, skipping every other member unread.
fn message_of<'de, A: MapAccess<'de>>(mut map: A) -> Result<Option<String>, A::Error> {
    let mut message = None;
    while let Some(key) = map.next_key::<String>()? {
        if key == "message" && message.is_none() {
            message = map.next_value::<Option<Lenient>>()?.and_then(Lenient::text);
        } else {
            map.next_value::<IgnoredAny>()?;
        }
    }
    Ok(message.map(|m| limit(&m, 300)))
}

impl<'de> Deserialize<'de> for GraphqlError {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = GraphqlError;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a GraphQL error")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<GraphqlError, E> {
                Ok(GraphqlError(Some(limit(v, 300))))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<GraphqlError, A::Error> {
                message_of(map).map(GraphqlError)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<GraphqlError, A::Error> {
                skip_seq(seq).map(|()| GraphqlError(None))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<GraphqlError, E> {
                Ok(GraphqlError(None))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<GraphqlError, E> {
                Ok(GraphqlError(None))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<GraphqlError, E> {
                Ok(GraphqlError(None))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<GraphqlError, E> {
                Ok(GraphqlError(None))
            }
            fn visit_unit<E: de::Error>(self) -> Result<GraphqlError, E> {
                Ok(GraphqlError(None))
            }
        }
        deserializer.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for GraphqlErrors {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = GraphqlErrors;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("GraphQL errors")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<GraphqlErrors, A::Error> {
                let mut list = Vec::new();
                while let Some(error) = seq.next_element::<GraphqlError>()? {
                    if list.len() < 5 {
                        list.push(error);
                    }
                }
                Ok(GraphqlErrors::List(list))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<GraphqlErrors, E> {
                Ok(GraphqlErrors::One(GraphqlError(Some(limit(v, 300)))))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<GraphqlErrors, A::Error> {
                message_of(map).map(|m| GraphqlErrors::One(GraphqlError(m)))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<GraphqlErrors, E> {
                Ok(GraphqlErrors::One(GraphqlError(None)))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<GraphqlErrors, E> {
                Ok(GraphqlErrors::One(GraphqlError(None)))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<GraphqlErrors, E> {
                Ok(GraphqlErrors::One(GraphqlError(None)))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<GraphqlErrors, E> {
                Ok(GraphqlErrors::One(GraphqlError(None)))
            }
        }
        deserializer.deserialize_any(V)
    }
}

/// The part of a GraphQL answer that carries its errors.
#[derive(Deserialize)]
#[serde(remote = "Self")]
pub(crate) struct GraphqlEnvelope {
    #[serde(default)]
    errors: Option<GraphqlErrors>,
}

crate::objects_only!(GraphqlEnvelope);

impl GraphqlEnvelope {
    /// The messages of `errors` when present and not empty (at most five).
    pub(crate) fn messages(self) -> Option<Vec<String>> {
        self.errors?.messages()
    }
}

impl GraphqlErrors {
    /// The errors' messages, or `None` for an empty list.
    pub(crate) fn messages(self) -> Option<Vec<String>> {
        match self {
            GraphqlErrors::List(list) if list.is_empty() => None,
            GraphqlErrors::List(list) => Some(
                list.into_iter()
                    .map(|GraphqlError(m)| m.unwrap_or_else(|| "(error without message)".into()))
                    .collect(),
            ),
            GraphqlErrors::One(GraphqlError(m)) => {
                Some(vec![m.unwrap_or_else(|| "(malformed errors entry)".into())])
            }
        }
    }
}

/// A value read as text when it is a string, a whole number or an array of strings (see
/// [`Lenient`]); anything else reads as `None`.
pub struct LenientText(pub Option<String>);

impl<'de> Deserialize<'de> for LenientText {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Lenient::deserialize(deserializer).map(|l| LenientText(l.text()))
    }
}

/// The error for a non-2xx answer. `body` is the lenient reading of its JSON body, if any.
pub fn status_error(
    operation: &'static str,
    head: &ResponseHead<'_>,
    body: Option<ErrorBody>,
    now_ms: f64,
) -> Error {
    let body = body.unwrap_or_default();
    let retry_after_ms = match head.status {
        429 | 503 => retry_after_ms(head, now_ms),
        _ => None,
    };
    Error::Status {
        operation,
        status: head.status,
        code: body.code,
        message: body.message,
        retry_after_ms,
    }
}

/// A non-negative number of seconds as a header carries it (`12`, `1.5`).
pub fn header_seconds(value: &str) -> Option<f64> {
    decimal(value.trim()).filter(|s| s.is_finite() && (0.0..1e9).contains(s))
}

/// How long the answer asks us to wait: `Retry-After` (seconds or HTTP date), else, for a
/// 429 only, `X-RateLimit-Reset` (seconds; the service sends it on every answer, so it says
/// nothing about when a 5xx will pass), in milliseconds.
pub fn retry_after_ms(head: &ResponseHead<'_>, now_ms: f64) -> Option<u64> {
    let ms = |secs: f64| (secs * 1000.0).round() as u64;
    if let Some(v) = head.retry_after.map(str::trim) {
        if let Some(secs) = header_seconds(v) {
            return Some(ms(secs));
        }
        // An HTTP date always ends with "GMT"; anything else is not one.
        if let Some(at) = Some(v)
            .filter(|v| v.ends_with("GMT"))
            .and_then(http_date_ms)
        {
            return Some((at - now_ms).max(0.0) as u64);
        }
    }
    if head.status != 429 {
        return None;
    }
    head.rate_limit_reset.and_then(header_seconds).map(ms)
}

/// The text of a serde error. serde-wasm-bindgen's errors are JavaScript `Error`s, whose text
/// starts with "Error: "; that prefix says nothing and is left out.
pub fn serde_message(error: &impl fmt::Display) -> String {
    let text = error.to_string();
    match text.strip_prefix("Error: ") {
        Some(rest) => rest.to_owned(),
        None => text,
    }
}

/// A caller's input error in JavaScript terms rather than serde's (one wording for every entry
/// of the package: estatekit-vocab's).
pub use estatekit_vocab::in_js_terms;

#[cfg(test)]
mod tests {
    #[test]
    fn input_errors_are_said_in_javascript_terms() {
        let cases = [
            (
                "invalid type: unit value, expected a string",
                "is missing, expected a string",
            ),
            (
                "invalid type: sequence, expected struct ListDocumentsQuery",
                "is an array, expected an object",
            ),
            (
                "invalid type: map, expected a sequence",
                "is an object, expected an array",
            ),
            (
                "invalid type: string \"5\", expected u32",
                "is the string \"5\", expected a non-negative integer",
            ),
            (
                "invalid value: floating point `-1`, expected u32",
                "is the number `-1`, expected a non-negative integer",
            ),
            (
                "invalid type: floating point `5.0`, expected a string",
                "is the number `5`, expected a string",
            ),
            (
                "invalid type: boolean `true`, expected f64",
                "is the boolean `true`, expected a number",
            ),
            (
                "unknown variant `UP`, expected `ASC` or `DESC`",
                "is `UP`, expected `ASC` or `DESC`",
            ),
            (
                "invalid type: unit variant, expected a map",
                "is a string, expected an object",
            ),
            (
                "invalid type: JsValue([1, {}]), expected u32",
                "is an array, expected a non-negative integer",
            ),
            (
                "invalid type: JsValue(Object({\"a\":1})), expected a string",
                "is an object, expected a string",
            ),
            (
                "invalid type: floating point `5`, expected enum DocumentType",
                "is the number `5`, expected a DocumentType",
            ),
            (
                "TypeError: Reflect.get called on non-object",
                "is not an array",
            ),
            ("must not be empty", "must not be empty"),
        ];
        for (serde, js) in cases {
            assert_eq!(super::in_js_terms(serde), js, "{serde}");
        }
    }

    use super::*;

    fn body(text: &str) -> ErrorBody {
        ErrorBody::from_answer(text.as_bytes())
    }

    #[test]
    fn reads_error_bodies_leniently() {
        assert_eq!(
            body(r#"{"code":"server_error","statusCode":403}"#),
            ErrorBody {
                code: Some("server_error".into()),
                message: None
            }
        );
        assert_eq!(
            body(r#"{"message":["a",["nested"],"b"],"code":5}"#),
            ErrorBody {
                code: Some("5".into()),
                message: Some("a; b".into())
            }
        );
        assert_eq!(
            body(r#"{"error":"invalid_grant","error_description":"bad"}"#)
                .code
                .as_deref(),
            Some("invalid_grant")
        );
        for odd in [
            "[]",
            "\"x\"",
            "null",
            "1",
            "true",
            r#"{"code":{"a":[1]},"message":null}"#,
            r#"{"code":1.5}"#,
            r#"{"code":true,"message":{"deep":["x"]}}"#,
        ] {
            assert_eq!(body(odd), ErrorBody::default(), "{odd}");
        }
    }

    #[test]
    fn graphql_errors_are_read_leniently() {
        let errors = |t: &str| {
            super::super::check::read::<GraphqlEnvelope>(t.as_bytes())
                .and_then(GraphqlEnvelope::messages)
        };
        assert_eq!(errors(r#"{"data":{}}"#), None);
        assert_eq!(errors(r#"{"errors":null}"#), None);
        assert_eq!(errors(r#"{"errors":[]}"#), None);
        assert_eq!(
            errors(r#"{"errors":[{"message":"filter required"},{"x":1},"plain"]}"#),
            Some(vec![
                "filter required".into(),
                "(error without message)".into(),
                "plain".into()
            ])
        );
        assert_eq!(errors(r#"{"errors":"boom"}"#), Some(vec!["boom".into()]));
        assert_eq!(
            errors(r#"{"errors":7}"#),
            Some(vec!["(malformed errors entry)".into()])
        );
    }

    #[test]
    fn retry_after_in_seconds_date_or_reset() {
        let head = |ra: Option<&'static str>, reset: Option<&'static str>| ResponseHead {
            status: 429,
            retry_after: ra,
            rate_limit_reset: reset,
        };
        assert_eq!(retry_after_ms(&head(Some("2"), None), 0.0), Some(2000));
        assert_eq!(
            retry_after_ms(&head(Some(" 1.5 "), Some("9")), 0.0),
            Some(1500)
        );
        assert_eq!(retry_after_ms(&head(None, Some("7")), 0.0), Some(7000));
        assert_eq!(retry_after_ms(&head(Some("soon"), None), 0.0), None);
        assert_eq!(retry_after_ms(&head(Some("-1"), None), 0.0), None);
        for bad in ["", "NaN", "inf", "-3", "1e12", "1.2.3"] {
            assert_eq!(header_seconds(bad), None, "{bad}");
        }
        let unavailable = ResponseHead {
            status: 503,
            retry_after: None,
            rate_limit_reset: Some("45"),
        };
        assert_eq!(
            retry_after_ms(&unavailable, 0.0),
            None,
            "reset only counts for 429"
        );
        let now = http_date_ms("Sun, 06 Nov 1994 08:49:37 GMT").unwrap();
        assert_eq!(now, 784_111_777_000.0);
        assert_eq!(
            retry_after_ms(&head(Some("Sun, 06 Nov 1994 08:49:40 GMT"), None), now),
            Some(3000)
        );
        assert_eq!(
            retry_after_ms(&head(Some("Sun, 06 Nov 1994 08:49:30 GMT"), None), now),
            Some(0)
        );
        let e = status_error("list webhooks", &head(Some("3"), None), None, 0.0);
        assert_eq!(e.retry_after_ms(), Some(3000));
    }
}
