//! Reading answers: non-2xx statuses into [`Error`]s, `Retry-After`, lists that may be bare
//! arrays or wrapped in an object, and type-checking with JSON paths in the messages.

use super::json_view::{JsonView, Kind};
use super::schema::{check, Step, Ty};
use crate::error::Error;
use crate::text::{concat, join, signed_decimal};

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

impl ErrorBody {
    /// Reads the fields it knows from a parsed body of any shape.
    pub fn read<V: JsonView>(body: &V) -> ErrorBody {
        let text = |key| body.get(key).and_then(|v| lenient_text(&v));
        ErrorBody {
            code: text("code").or_else(|| text("error")),
            message: text("message").or_else(|| text("error_description")),
        }
    }
}

/// A string (cut to 500 characters), an integer as text, or the strings directly inside an
/// array joined by "; " (nested values are not looked into).
pub fn lenient_text<V: JsonView>(v: &V) -> Option<String> {
    match v.kind() {
        Kind::String => v.text().map(|t| limit(&t, 500)),
        Kind::Number => v
            .number()
            .filter(|n| n.fract() == 0.0 && n.abs() < 1e15)
            .map(|n| signed_decimal(n as i64)),
        Kind::Array => {
            let parts: Vec<String> = (0..v.len().min(10))
                .filter_map(|i| v.at(i))
                .filter(|e| e.kind() == Kind::String)
                .filter_map(|e| e.text().map(|t| limit(&t, 500)))
                .collect();
            (!parts.is_empty()).then(|| join(&parts, "; "))
        }
        _ => None,
    }
}

/// `s` cut to at most `max` characters (with an ellipsis when cut).
pub fn limit(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => concat(&[s.get(..i).unwrap_or(""), "…"]),
        None => s.to_owned(),
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

/// How long the answer asks us to wait: `Retry-After` (seconds or HTTP date), else, for a
/// 429 only, `X-RateLimit-Reset` (seconds; the service sends it on every answer, so it says
/// nothing about when a 5xx will pass), in milliseconds.
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
    if head.status != 429 {
        return None;
    }
    head.rate_limit_reset.map(str::trim).and_then(seconds_to_ms)
}

/// A plain non-negative decimal (`12`, `1.5`), as header values carry them; no exponents,
/// signs or special values (and no float-parsing machinery in the module).
pub fn parse_decimal(v: &str) -> Option<f64> {
    let (whole, fraction) = v.split_once('.').unwrap_or((v, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty()
        || whole.len() > 12
        || fraction.len() > 9
        || !digits(whole)
        || !digits(fraction)
    {
        return None;
    }
    let mut value = 0.0f64;
    for b in whole.bytes() {
        value = value * 10.0 + f64::from(b - b'0');
    }
    let mut scale = 0.1f64;
    for b in fraction.bytes() {
        value += f64::from(b - b'0') * scale;
        scale /= 10.0;
    }
    Some(value)
}

fn seconds_to_ms(v: &str) -> Option<u64> {
    let secs = parse_decimal(v)?;
    (0.0..1e9)
        .contains(&secs)
        .then(|| (secs * 1000.0).round() as u64)
}

/// Parses an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) into milliseconds since 1970.
pub fn parse_http_date(v: &str) -> Option<f64> {
    // The weekday is optional; when present it is followed by ", ".
    let rest = match v.split_once(',') {
        Some((_, r)) => r.strip_prefix(' ')?,
        None => v,
    };
    let mut it = rest.split(' ');
    let day: i64 = it.next()?.parse::<u8>().ok()?.into();
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
    // Bounded fields keep the arithmetic below far from overflow.
    let year: i64 = it.next()?.parse::<u16>().ok()?.into();
    let mut hms = it.next()?.split(':');
    let h: i64 = hms.next()?.parse::<u8>().ok()?.into();
    let m: i64 = hms.next()?.parse::<u8>().ok()?.into();
    let s: i64 = hms.next()?.parse::<u8>().ok()?.into();
    if it.next()? != "GMT"
        || !(1..=31).contains(&day)
        || !(1970..=9999).contains(&year)
        || h > 23
        || m > 59
        || s > 60
    {
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

/// Keys under which a wrapped list answer may hold its array, in order of preference.
pub const LIST_KEYS: [&str; 3] = ["items", "data", "documents"];

/// Finds the array of a list answer (the body itself, or the first of [`LIST_KEYS`] holding
/// an array) and checks it against `list` (a [`Ty::List`]); returns where it was and the array.
pub fn check_list<V: JsonView>(
    operation: &'static str,
    status: u16,
    body: V,
    list: &'static Ty,
) -> Result<(ListShape, V), Error> {
    let (shape, array) = match body.kind() {
        Kind::Array => (ListShape::Bare, body),
        Kind::Object => LIST_KEYS
            .iter()
            .find_map(|key| {
                body.get(key)
                    .filter(|v| v.kind() == Kind::Array)
                    .map(|v| (ListShape::Under(key), v))
            })
            .ok_or_else(|| Error::Decode {
                operation,
                status,
                reason:
                    "expected a list, or an object holding the list under items, data or documents"
                        .into(),
            })?,
        other => {
            return Err(Error::Decode {
                operation,
                status,
                reason: concat(&["expected a list, got ", other.described()]),
            })
        }
    };
    let prefix: Vec<Step> = shape.key().map(Step::key).into_iter().collect();
    check_value(operation, status, &array, list, &prefix)?;
    Ok((shape, array))
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

/// Checks `value` (found at `prefix` in the body) against `ty`; a mismatch is a `decode` error
/// naming the JSON path (e.g. `at data.messages[3].isRead: expected a boolean, got a string`).
pub fn check_value<V: JsonView>(
    operation: &'static str,
    status: u16,
    value: &V,
    ty: &'static Ty,
    prefix: &[Step],
) -> Result<(), Error> {
    check(value, ty).map_err(|m| Error::Decode {
        operation,
        status,
        reason: limit(&m.describe(prefix), 300),
    })
}

/// The `decode` error for a 2xx body that is not JSON at all (empty, HTML, cut short, not
/// UTF-8). `excerpt` is the start of the body as text, if it was text.
pub fn not_json(operation: &'static str, status: u16, excerpt: Option<&str>) -> Error {
    let reason = match excerpt {
        None => "the body is not valid UTF-8 text".to_owned(),
        Some("") => "the body is empty, expected JSON".to_owned(),
        Some(t) => concat(&["the body is not valid JSON: \"", &limit(t, 120), "\""]),
    };
    Error::Decode {
        operation,
        status,
        reason,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::webhooks::WEBHOOK_LIST;
    use serde_json::{json, Value};

    fn body(text: &str) -> ErrorBody {
        let v: Value = serde_json::from_str(text).unwrap();
        ErrorBody::read(&&v)
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
        assert_eq!(parse_decimal("0.25"), Some(0.25));
        assert_eq!(parse_decimal("12"), Some(12.0));
        for bad in [
            "",
            ".5",
            "1e3",
            "+1",
            "NaN",
            "inf",
            "1.2.3",
            "9999999999999",
        ] {
            assert_eq!(parse_decimal(bad), None, "{bad}");
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
        for hostile in [
            "Sun, 06 Nov 99999999999999 08:49:37 GMT",
            "Sun, 06 Nov 1994 -8:49:37 GMT",
            "Sun, 99 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 1969 08:49:37 GMT",
            "Sun, 06 Nov 1994 08:49:37",
        ] {
            assert_eq!(parse_http_date(hostile), None, "{hostile}");
        }
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

    fn list(v: &Value) -> Result<(ListShape, usize), Error> {
        check_list("list webhooks", 200, v, &WEBHOOK_LIST).map(|(s, a)| (s, a.len()))
    }

    #[test]
    fn lists_bare_or_wrapped() {
        let one = json!({"id":"w1","type":"UNIT_CREATED","url":"https://x"});
        assert_eq!(list(&json!([one])).unwrap(), (ListShape::Bare, 1));
        for key in LIST_KEYS {
            let mut wrapped = serde_json::Map::new();
            wrapped.insert("total".into(), json!(1));
            wrapped.insert(key.into(), json!([one]));
            assert_eq!(
                list(&Value::Object(wrapped)).unwrap(),
                (ListShape::Under(key), 1)
            );
        }
        assert_eq!(
            list(&json!({"data": [], "items": [one]})).unwrap(),
            (ListShape::Under("items"), 1)
        );
        assert!(list(&json!({"rows": []})).is_err());
        assert!(list(&json!({"items": "nope"})).is_err());
        assert!(list(&Value::Null).is_err());
    }

    #[test]
    fn decode_errors_name_the_path() {
        let v = json!({"items": [{"id":"a","type":"T","url":"u"}, {"id":5}]});
        let e = list(&v).unwrap_err();
        assert_eq!(e.kind(), crate::error::ErrorKind::Decode);
        assert!(
            e.to_string()
                .contains("at items[1].id: expected a string, got a number"),
            "{e}"
        );
        let e = not_json("list webhooks", 200, Some("<html>"));
        assert!(e.to_string().contains("not valid JSON"), "{e}");
        assert!(not_json("x", 200, None).to_string().contains("UTF-8"));
        assert_eq!(limit("abcdef", 3), "abc…");
        assert_eq!(limit("ab", 3), "ab");
        assert_eq!(lenient_text(&&json!(12)), Some("12".into()));
        assert_eq!(lenient_text(&&json!(1.5)), None);
    }
}
