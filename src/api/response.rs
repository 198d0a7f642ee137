//! Reading answers: non-2xx statuses into [`Error`]s, `Retry-After`, lists that may be bare
//! arrays or wrapped in an object, and type-checking with JSON paths in the messages.

use crate::error::Error;
use serde::de::{self, DeserializeOwned, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use std::fmt;
use std::marker::PhantomData;

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

/// The service's error body, read leniently: `{code, statusCode, message}` (REST),
/// `{error, error_description}` (OAuth); anything else yields empty fields.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ErrorBody {
    /// `code` (or `error`).
    pub code: Option<String>,
    /// `message` (a string, or strings joined by "; ") or `error_description`.
    pub message: Option<String>,
}

impl<'de> Deserialize<'de> for ErrorBody {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ErrorBody;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an error body")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ErrorBody, A::Error> {
                let mut body = ErrorBody::default();
                let mut fallback = ErrorBody::default();
                while let Some(key) = map.next_key::<LenientText>()? {
                    let slot = match key.0.as_deref() {
                        Some("code") => &mut body.code,
                        Some("message") => &mut body.message,
                        Some("error") => &mut fallback.code,
                        Some("error_description") => &mut fallback.message,
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                            continue;
                        }
                    };
                    *slot = map.next_value::<LenientText>()?.0;
                }
                Ok(ErrorBody {
                    code: body.code.or(fallback.code),
                    message: body.message.or(fallback.message),
                })
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ErrorBody, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(ErrorBody::default())
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<ErrorBody, E> {
                Ok(ErrorBody::default())
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<ErrorBody, E> {
                Ok(ErrorBody::default())
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<ErrorBody, E> {
                Ok(ErrorBody::default())
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<ErrorBody, E> {
                Ok(ErrorBody::default())
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<ErrorBody, E> {
                Ok(ErrorBody::default())
            }
            fn visit_unit<E: de::Error>(self) -> Result<ErrorBody, E> {
                Ok(ErrorBody::default())
            }
        }
        d.deserialize_any(V)
    }
}

/// Any JSON value; keeps text when it is a string (or a list of strings, joined), else `None`.
#[derive(Debug, Default)]
pub(crate) struct LenientText(pub Option<String>);

impl<'de> Deserialize<'de> for LenientText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = LenientText;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any value")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<LenientText, E> {
                Ok(LenientText(Some(limit(v, 500))))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<LenientText, A::Error> {
                // Only strings directly in the list count; nested values are skipped without
                // recursion, so hostile nesting cannot exhaust the stack.
                let mut parts = Vec::new();
                while let Some(StringOnly(t)) = seq.next_element::<StringOnly>()? {
                    if let Some(t) = t {
                        if parts.len() < 10 {
                            parts.push(t);
                        }
                    }
                }
                Ok(LenientText((!parts.is_empty()).then(|| parts.join("; "))))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<LenientText, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(LenientText(None))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<LenientText, E> {
                Ok(LenientText(None))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<LenientText, E> {
                Ok(LenientText(Some(v.to_string())))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<LenientText, E> {
                Ok(LenientText(Some(v.to_string())))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<LenientText, E> {
                Ok(LenientText(None))
            }
            fn visit_unit<E: de::Error>(self) -> Result<LenientText, E> {
                Ok(LenientText(None))
            }
            fn visit_none<E: de::Error>(self) -> Result<LenientText, E> {
                Ok(LenientText(None))
            }
            fn visit_some<D2: Deserializer<'de>>(self, d: D2) -> Result<LenientText, D2::Error> {
                d.deserialize_any(V)
            }
        }
        d.deserialize_any(V)
    }
}

/// A string, or `None` for any other value (skipped without looking inside).
struct StringOnly(Option<String>);

impl<'de> Deserialize<'de> for StringOnly {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = StringOnly;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any value")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<StringOnly, E> {
                Ok(StringOnly(Some(limit(v, 500))))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<StringOnly, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(StringOnly(None))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<StringOnly, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(StringOnly(None))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<StringOnly, E> {
                Ok(StringOnly(None))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<StringOnly, E> {
                Ok(StringOnly(None))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<StringOnly, E> {
                Ok(StringOnly(None))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<StringOnly, E> {
                Ok(StringOnly(None))
            }
            fn visit_unit<E: de::Error>(self) -> Result<StringOnly, E> {
                Ok(StringOnly(None))
            }
        }
        d.deserialize_any(V)
    }
}

/// `s` cut to at most `max` characters (with an ellipsis when cut).
pub fn limit(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", s.get(..i).unwrap_or("")),
        None => s.to_string(),
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

/// How long the answer asks us to wait: `Retry-After` (seconds or HTTP date), else
/// `X-RateLimit-Reset` (seconds), in milliseconds.
pub fn retry_after_ms(head: &ResponseHead<'_>, now_ms: f64) -> Option<u64> {
    if let Some(v) = head.retry_after.map(str::trim) {
        if let Some(ms) = seconds_to_ms(v) {
            return Some(ms);
        }
        if let Some(at) = parse_http_date(v) {
            let delta = at - now_ms;
            return Some(if delta > 0.0 { delta as u64 } else { 0 });
        }
    }
    head.rate_limit_reset.map(str::trim).and_then(seconds_to_ms)
}

fn seconds_to_ms(v: &str) -> Option<u64> {
    let secs: f64 = v.parse().ok()?;
    (0.0..1e9)
        .contains(&secs)
        .then(|| (secs * 1000.0).round() as u64)
}

/// Parses an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) into milliseconds since 1970.
pub fn parse_http_date(v: &str) -> Option<f64> {
    let rest = v.split_once(", ").map_or(v, |(_, r)| r);
    let mut it = rest.split(' ');
    let day: i64 = it.next()?.parse().ok()?;
    let month = match it.next()? {
        "Jan" => 1,
        "Feb" => 2,
        "Mar" => 3,
        "Apr" => 4,
        "May" => 5,
        "Jun" => 6,
        "Jul" => 7,
        "Aug" => 8,
        "Sep" => 9,
        "Oct" => 10,
        "Nov" => 11,
        "Dec" => 12,
        _ => return None,
    };
    let year: i64 = it.next()?.parse().ok()?;
    let mut hms = it.next()?.split(':');
    let h: i64 = hms.next()?.parse().ok()?;
    let m: i64 = hms.next()?.parse().ok()?;
    let s: i64 = hms.next()?.parse().ok()?;
    if it.next()? != "GMT" || !(1..=31).contains(&day) || h > 23 || m > 59 || s > 60 {
        return None;
    }
    // Days from civil (Howard Hinnant's algorithm).
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(((days * 86_400 + h * 3600 + m * 60 + s) * 1000) as f64)
}

/// Where a list answer kept its array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListShape {
    /// The body is the array.
    Bare,
    /// The body is an object holding the array under this key.
    Under(&'static str),
}

impl ListShape {
    /// The key holding the array, if any.
    pub fn key(self) -> Option<&'static str> {
        match self {
            ListShape::Bare => None,
            ListShape::Under(k) => Some(k),
        }
    }
}

/// Keys under which a wrapped list answer may hold its array, in order of preference.
pub const LIST_KEYS: [&str; 3] = ["items", "data", "documents"];

/// A list answer: its shape and its checked elements.
#[derive(Debug)]
pub struct Listed<T> {
    /// Where the array was.
    pub shape: ListShape,
    /// The checked elements.
    pub items: Vec<T>,
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Listed<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Listed<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list, or an object holding the list under items, data or documents")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Listed<T>, A::Error> {
                let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(Listed {
                    shape: ListShape::Bare,
                    items,
                })
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Listed<T>, A::Error> {
                let mut found: Option<(usize, Listed<T>)> = None;
                while let Some(LenientText(key)) = map.next_key::<LenientText>()? {
                    let rank = key
                        .as_deref()
                        .and_then(|k| LIST_KEYS.iter().position(|l| *l == k));
                    match (rank, LIST_KEYS.get(rank.unwrap_or(usize::MAX))) {
                        (Some(r), Some(name)) if found.as_ref().is_none_or(|(fr, _)| r < *fr) => {
                            let items: Vec<T> = map.next_value()?;
                            found = Some((
                                r,
                                Listed {
                                    shape: ListShape::Under(name),
                                    items,
                                },
                            ));
                        }
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                found.map(|(_, l)| l).ok_or_else(|| {
                    de::Error::custom(
                        "expected a list, or an object holding the list under items, data or documents",
                    )
                })
            }
        }
        d.deserialize_any(V(PhantomData))
    }
}

/// Deserialises a 2xx body as `T`, turning failures into a `decode` error that names the
/// JSON path (e.g. `[3].isRead: invalid type: string "yes", expected a boolean or null`).
pub fn check_body<'de, T, D>(operation: &'static str, status: u16, d: D) -> Result<T, Error>
where
    T: Deserialize<'de>,
    D: Deserializer<'de>,
{
    serde_path_to_error::deserialize(d).map_err(|e| {
        let path = e.path().to_string();
        let inner = limit(&e.into_inner().to_string(), 300);
        Error::Decode {
            operation,
            status,
            reason: if path == "." || path.is_empty() {
                inner
            } else {
                format!("at {path}: {inner}")
            },
        }
    })
}

/// The `decode` error for a 2xx body that is not JSON at all (empty, HTML, cut short, not
/// UTF-8). `excerpt` is the start of the body as text, if it was text.
pub fn not_json(operation: &'static str, status: u16, excerpt: Option<&str>) -> Error {
    let reason = match excerpt {
        None => "the body is not valid UTF-8 text".to_string(),
        Some("") => "the body is empty, expected JSON".to_string(),
        Some(t) => format!("the body is not valid JSON: {:?}", limit(t, 120)),
    };
    Error::Decode {
        operation,
        status,
        reason,
    }
}

/// Deserialises caller input (a JavaScript object) as `T`, naming the offending field.
pub fn parse_input<'de, T, D>(field: &str, d: D) -> Result<T, Error>
where
    T: DeserializeOwned,
    D: Deserializer<'de>,
{
    serde_path_to_error::deserialize(d).map_err(|e| {
        let path = e.path().to_string();
        let field = if path == "." || path.is_empty() {
            field.to_string()
        } else {
            format!("{field}.{path}")
        };
        Error::invalid(field, limit(&e.into_inner().to_string(), 300))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::webhooks::WebhookCheck;

    fn body(json: &str) -> ErrorBody {
        serde_json::from_str(json).unwrap()
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
            body(r#"{"message":["a","b"],"code":5}"#),
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
        ] {
            assert_eq!(body(odd), ErrorBody::default(), "{odd}");
        }
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
        let now = parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT").unwrap();
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

    #[test]
    fn lists_bare_or_wrapped() {
        let one = r#"{"id":"w1","type":"UNIT_CREATED","url":"https://x"}"#;
        let l: Listed<WebhookCheck> = serde_json::from_str(&format!("[{one}]")).unwrap();
        assert_eq!((l.shape, l.items.len()), (ListShape::Bare, 1));
        for key in LIST_KEYS {
            let l: Listed<WebhookCheck> =
                serde_json::from_str(&format!(r#"{{"total":1,"{key}":[{one}]}}"#)).unwrap();
            assert_eq!(l.shape, ListShape::Under(key));
            assert_eq!(l.items.len(), 1);
        }
        let l: Listed<WebhookCheck> =
            serde_json::from_str(&format!(r#"{{"data":[],"items":[{one}]}}"#)).unwrap();
        assert_eq!((l.shape, l.items.len()), (ListShape::Under("items"), 1));
        assert!(serde_json::from_str::<Listed<WebhookCheck>>(r#"{"rows":[]}"#).is_err());
        assert!(serde_json::from_str::<Listed<WebhookCheck>>("null").is_err());
    }

    #[test]
    fn decode_errors_name_the_path() {
        let mut d =
            serde_json::Deserializer::from_str(r#"[{"id":"a","type":"T","url":"u"},{"id":5}]"#);
        let e = check_body::<Listed<WebhookCheck>, _>("list webhooks", 200, &mut d).unwrap_err();
        assert_eq!(e.kind(), crate::error::ErrorKind::Decode);
        assert!(e.to_string().contains("at [1].id"), "{e}");
        let e = not_json("list webhooks", 200, Some("<html>"));
        assert!(e.to_string().contains("not valid JSON"), "{e}");
        assert!(not_json("x", 200, None).to_string().contains("UTF-8"));
        assert_eq!(limit("abcdef", 3), "abc…");
        assert_eq!(limit("ab", 3), "ab");
    }
}
