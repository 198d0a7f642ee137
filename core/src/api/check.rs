//! The one check of every answer: the body's bytes, as sent, read by serde_json into the model's
//! types (the caller receives the browser's own `JSON.parse` value; this only says whether it
//! is what the interface documents, and where it is not), with the shapes the checks share (a
//! list checked element by element, [`Checked`]; the keys of a wrapped list, [`LIST_KEYS`]) and
//! the errors of a 2xx answer that is not what it should be ([`not_a_list`], [`not_json`]).
//!
//! One plain pass over the bytes; only when it fails, one walk of the text finds the JSON path of
//! where serde_json stopped ([`path_at`]: the path serde_path_to_error would track, without a
//! second, tracked copy of every type's decoder in the module). Where serde_json and `JSON.parse`
//! read the same text differently, the text is resolved the way `JSON.parse` resolves it
//! ([`resolved`]) and read again: a key given twice keeps its last value, a number beyond f64's
//! range is a number (`JSON.parse` makes it `Infinity`).

use crate::error::{limit, Error};
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

/// An answer's bytes without the UTF-8 byte order mark a body may start with (`Response.text()`
/// drops it too).
fn without_bom(body: &[u8]) -> &[u8] {
    body.strip_prefix(b"\xEF\xBB\xBF".as_slice())
        .unwrap_or(body)
}

/// Reads `T` from the answer's value itself (`key` empty) or from the value under `key` of the
/// answer's object (a wrapped list: [`LIST_KEYS`]).
struct At<'k, T> {
    key: &'k str,
    value: PhantomData<T>,
}

impl<'k, T> At<'k, T> {
    fn new(key: &'k str) -> Self {
        At {
            key,
            value: PhantomData,
        }
    }
}

impl<'de, T: Deserialize<'de>> DeserializeSeed<'de> for At<'_, T> {
    type Value = T;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        if self.key.is_empty() {
            return T::deserialize(deserializer);
        }
        deserializer.deserialize_map(self)
    }
}

impl<'de, T: Deserialize<'de>> Visitor<'de> for At<'_, T> {
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "an object holding {}", self.key)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        let mut found = None;
        while let Some(wanted) = map.next_key_seed(KeyIs(self.key))? {
            if !wanted {
                map.next_value::<IgnoredAny>()?;
            } else if found.is_some() {
                // As serde's derive says it, so that the text is resolved (the last one wins).
                return Err(de::Error::custom(format_args!(
                    "duplicate field `{}`",
                    self.key
                )));
            } else {
                found = Some(map.next_value::<T>()?);
            }
        }
        found.ok_or_else(|| de::Error::custom(format_args!("{} is missing", self.key)))
    }
}

/// Whether a key is the one wanted, read without copying it.
struct KeyIs<'k>(&'k str);

impl<'de> DeserializeSeed<'de> for KeyIs<'_> {
    type Value = bool;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<bool, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeyIs<'_> {
    type Value = bool;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }
    fn visit_str<E: de::Error>(self, key: &str) -> Result<bool, E> {
        Ok(key == self.0)
    }
}

/// Checks an answer's bytes as `T` (at `key`, see [`At`]); a mismatch is a `decode` error naming
/// the JSON path (`at items[3].id: invalid type: floating point `5.0`, expected a string`).
pub fn check<T: for<'de> Deserialize<'de>>(
    operation: &'static str,
    status: u16,
    key: &str,
    body: &[u8],
) -> Result<T, Error> {
    let mut text = Cow::Borrowed(without_bom(body));
    // Each round resolves one difference (a key's name, or the numbers): a few at most.
    for _ in 0..16 {
        let error = match plain::<T>(key, &text) {
            Ok(value) => return Ok(value),
            Err(error) => error,
        };
        match resolved_or_refused(&text, &error) {
            Ok(next) => text = Cow::Owned(next),
            Err(reason) => return Err(decode_error(operation, status, &reason)),
        }
    }
    plain::<T>(key, &text)
        .map_err(|error| decode_error(operation, status, &refusal(&text, &error).1))
}

/// After a plain pass failed with `error`: the text resolved the way `JSON.parse` resolves what
/// serde_json refused, or, for a mismatch at a key, that key (given twice, its last value is the
/// one that counts); else the reason the answer is refused. Never inlined: one copy serves every
/// answer type (at opt-level 3 it would be copied into each).
#[inline(never)]
fn resolved_or_refused(text: &[u8], error: &serde_json::Error) -> Result<Vec<u8>, String> {
    let (what, reason) = match ReadDifferently::of(error) {
        Some(what) => (Some(what), None),
        None => {
            let (at, reason) = refusal(text, error);
            (at.map(ReadDifferently::Duplicate), Some(reason))
        }
    };
    match what.and_then(|what| resolved(text, &what)) {
        Some(next) => Ok(next),
        None => Err(reason.unwrap_or_else(|| refusal(text, error).1)),
    }
}

/// The `decode` error of a refused answer.
#[inline(never)]
fn decode_error(operation: &'static str, status: u16, reason: &str) -> Error {
    Error::Decode {
        operation,
        status,
        reason: limit(reason, 300),
    }
}

/// The plain pass: `T` read from `body` at `key`.
fn plain<T: for<'de> Deserialize<'de>>(key: &str, body: &[u8]) -> Result<T, serde_json::Error> {
    At::<T>::new(key).deserialize(&mut serde_json::Deserializer::from_slice(body))
}

/// Reads what an answer may carry (an error body, GraphQL `errors`, a new webhook's `id`) from
/// its bytes, or `None` when they are not of `T`'s shape.
pub fn read<T: for<'de> Deserialize<'de>>(body: &[u8]) -> Option<T> {
    let mut text = Cow::Borrowed(without_bom(body));
    for _ in 0..16 {
        let error = match plain::<T>("", &text) {
            Ok(value) => return Some(value),
            Err(error) => error,
        };
        text = Cow::Owned(resolved(&text, &ReadDifferently::of(&error)?)?);
    }
    None
}

/// Why a body failed the plain pass (`error`): the key the mismatch is at (if at a key), and the
/// reason with the JSON path of where serde_json stopped.
fn refusal(body: &[u8], error: &serde_json::Error) -> (Option<String>, String) {
    let steps = path_at(body, error_offset(body, error));
    let at = match steps.last() {
        Some(Step::Key(key)) => Some(key.clone()),
        _ => None,
    };
    let reason = if steps.is_empty() {
        words(error)
    } else {
        let mut path = String::new();
        for step in &steps {
            match step {
                Step::Key(key) if path.is_empty() => path.push_str(key),
                Step::Key(key) => {
                    path.push('.');
                    path.push_str(key);
                }
                Step::Index(index) => path.push_str(&format!("[{index}]")),
            }
        }
        format!("at {path}: {}", words(error))
    };
    (at, reason)
}

/// Where in `body` serde_json stopped with `error`: its line and column as a byte offset.
fn error_offset(body: &[u8], error: &serde_json::Error) -> usize {
    let line_start = match error.line() {
        0 | 1 => 0,
        line => body
            .iter()
            .enumerate()
            .filter(|(_, byte)| **byte == b'\n')
            .nth(line - 2)
            .map_or(body.len(), |(at, _)| at + 1),
    };
    let at = line_start + error.column();
    // A record given as an array is refused after its `[` (and the space after it) was read:
    // the array is where.
    let open = body
        .get(..at)
        .and_then(|before| before.iter().rposition(|b| !b" \t\r\n".contains(b)));
    match open {
        Some(open)
            if body.get(open) == Some(&b'[')
                && error.to_string().starts_with("invalid type: sequence") =>
        {
            open
        }
        _ => at,
    }
}

/// A step of a JSON path: an object's key, an array's index.
enum Step {
    Key(String),
    Index(usize),
}

/// The JSON path of the innermost value of `body` around byte `at`: the one that starts there
/// (serde_json stops at an array or object of the wrong kind before reading it) or ends there
/// (it stops after any other value, and after an object's `}` when a field is missing). The
/// steps the serde_path_to_error crate would record, found in one walk of the text instead of
/// a second, tracked read of every type (which would double the module's decoding code).
fn path_at(body: &[u8], at: usize) -> Vec<Step> {
    let mut steps = Vec::new();
    let Ok(mut value) = serde_json::from_slice::<&RawValue>(body) else {
        return steps;
    };
    let around = |raw: &&RawValue| {
        let start = offset(body, raw);
        (start..=start + raw.get().len()).contains(&at)
    };
    loop {
        let text = value.get().as_bytes();
        let next = match text.first() {
            Some(b'{') => serde_json::from_slice(text)
                .ok()
                .and_then(|Entries(entries)| {
                    let (key, child) = entries.into_iter().find(|(_, child)| around(child))?;
                    Some((Step::Key(key), child))
                }),
            Some(b'[') => serde_json::from_slice(text).ok().and_then(|Items(items)| {
                let (index, child) = items.into_iter().enumerate().find(|(_, c)| around(c))?;
                Some((Step::Index(index), child))
            }),
            _ => None,
        };
        let Some((step, child)) = next else {
            return steps;
        };
        steps.push(step);
        value = child;
    }
}

/// A serde_json error in the words the client uses for every answer: without serde_json's
/// position (the path says where), and a number said as JavaScript has it (serde_json's
/// `integer `5`` is `floating point `5.0``, as for any other number).
fn words(error: &serde_json::Error) -> String {
    let text = error.to_string();
    let position = format!(" at line {} column {}", error.line(), error.column());
    let text = text.strip_suffix(position.as_str()).unwrap_or(&text);
    for kind in ["invalid type: ", "invalid value: "] {
        let Some(rest) = text
            .strip_prefix(kind)
            .and_then(|r| r.strip_prefix("integer `"))
        else {
            continue;
        };
        let Some((digits, tail)) = rest.split_once('`') else {
            break;
        };
        // Integers only (serde_json says `integer` of an i64 or a u64): no float parser needed.
        let number = match digits.parse::<i64>() {
            Ok(n) => n as f64,
            Err(_) => match digits.parse::<u64>() {
                Ok(n) => n as f64,
                Err(_) => break,
            },
        };
        return format!("{kind}{}{tail}", de::Unexpected::Float(number));
    }
    text.to_owned()
}

/// How deep [`resolved`] looks: below this, no value is one the check reads (records lie at
/// most six levels down, in a message's attachments).
const RESOLVE_DEPTH: u32 = 8;

/// What serde_json refused that `JSON.parse` resolves, from the plain pass's error: a key given
/// twice (its name, as serde's derive and [`At`] say it: ``duplicate field `id` ``), or a
/// number beyond f64's range.
enum ReadDifferently {
    Duplicate(String),
    OutOfRange,
}

impl ReadDifferently {
    fn of(error: &serde_json::Error) -> Option<Self> {
        let text = error.to_string();
        if text.starts_with("number out of range") {
            return Some(ReadDifferently::OutOfRange);
        }
        let name = text.strip_prefix("duplicate field `")?.split('`').next()?;
        Some(ReadDifferently::Duplicate(name.to_owned()))
    }
}

/// The body as `JSON.parse` resolves what the plain pass refused (`what`), patched in a copy of
/// its bytes, each patch keeping the text's length: in each object down to [`RESOLVE_DEPTH`],
/// an earlier occurrence of the key given twice is renamed to one no type reads (`"~~"`), so
/// that its last value is the one checked; a number beyond f64's range is written `0` (a
/// number to the check, as the `Infinity` the caller gets). `None` when there is nothing to
/// resolve.
fn resolved(body: &[u8], what: &ReadDifferently) -> Option<Vec<u8>> {
    let raw: &RawValue = serde_json::from_slice(body).ok()?;
    let mut out = body.to_vec();
    let mut patched = false;
    resolve(body, raw, what, 0, &mut out, &mut patched).ok()?;
    patched.then_some(out)
}

/// Where `raw` (a part of `body`) starts in it.
fn offset(body: &[u8], raw: &RawValue) -> usize {
    (raw.get().as_ptr() as usize).saturating_sub(body.as_ptr() as usize)
}

/// Fills `out[range]` with `byte`, if the range is in it.
fn fill(out: &mut [u8], range: std::ops::Range<usize>, byte: u8) -> bool {
    match out.get_mut(range) {
        Some(span) => {
            span.fill(byte);
            true
        }
        None => false,
    }
}

fn resolve(
    body: &[u8],
    raw: &RawValue,
    what: &ReadDifferently,
    depth: u32,
    out: &mut [u8],
    patched: &mut bool,
) -> Result<(), serde_json::Error> {
    let text = raw.get().as_bytes();
    let start = offset(body, raw);
    match text.first() {
        Some(b'{') if depth < RESOLVE_DEPTH => {
            let name = match what {
                ReadDifferently::Duplicate(name) => Some(name.as_str()),
                ReadDifferently::OutOfRange => None,
            };
            let Entries(entries) = serde_json::from_slice(text)?;
            let last = entries
                .iter()
                .rposition(|(key, _)| Some(key.as_str()) == name);
            // Where the text between two values starts: after `{`, then after each value.
            let mut after = start + 1;
            for (at, (key, value)) in entries.iter().enumerate() {
                let value_at = offset(body, value);
                if Some(key.as_str()) == name && Some(at) != last {
                    // The key is the one string in `, "key" :` before the value.
                    let between = body.get(after..value_at).unwrap_or_default();
                    let open = between.iter().position(|b| *b == b'"');
                    let close = between.iter().rposition(|b| *b == b'"');
                    if let (Some(open), Some(close)) = (open, close) {
                        *patched |= fill(out, after + open + 1..after + close, b'~');
                    }
                }
                resolve(body, value, what, depth + 1, out, patched)?;
                after = value_at + value.get().len();
            }
        }
        Some(b'[') if depth < RESOLVE_DEPTH => {
            let Items(items) = serde_json::from_slice(text)?;
            for item in items {
                resolve(body, item, what, depth + 1, out, patched)?;
            }
        }
        // serde_json refuses exactly the numbers beyond f64's range.
        Some(b'-' | b'0'..=b'9')
            if matches!(what, ReadDifferently::OutOfRange)
                && serde_json::from_slice::<f64>(text).is_err()
                && fill(out, start..start + text.len(), b' ') =>
        {
            *patched |= fill(out, start..start + 1, b'0');
        }
        _ => {}
    }
    Ok(())
}

/// An object's entries in order, their values unread.
struct Entries<'a>(Vec<(String, &'a RawValue)>);

impl<'de> Deserialize<'de> for Entries<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Entries<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Entries<'de>, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(Entries(entries))
            }
        }
        deserializer.deserialize_map(V)
    }
}

/// An array's items, unread.
struct Items<'a>(Vec<&'a RawValue>);

impl<'de> Deserialize<'de> for Items<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Items<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an array")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Items<'de>, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(Items(items))
            }
        }
        deserializer.deserialize_seq(V)
    }
}

/// A list checked element by element: each element is decoded into `T` (serde) and dropped at
/// once, so that checking a 10,000-record answer keeps no record (the caller receives the
/// browser's own array). Holds how many elements there were.
pub struct Checked<T> {
    /// Number of elements.
    pub len: usize,
    element: PhantomData<T>,
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Checked<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Checked<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a sequence")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Checked<T>, A::Error> {
                let mut len = 0;
                while seq.next_element::<T>()?.is_some() {
                    len += 1;
                }
                Ok(Checked {
                    len,
                    element: PhantomData,
                })
            }
        }
        deserializer.deserialize_seq(V(PhantomData))
    }
}

/// Keys under which a wrapped list answer may hold its array, in order of preference.
pub const LIST_KEYS: [&str; 3] = ["items", "data", "documents"];

/// The `decode` error for an answer that is neither a list nor an object wrapping one.
pub fn not_a_list(operation: &'static str, status: u16, got: &str) -> Error {
    Error::Decode {
        operation,
        status,
        reason: format!(
            "expected a list, or an object holding the list under items, data or documents; got {got}"
        ),
    }
}

/// The `decode` error for a 2xx body that is not JSON at all (empty, HTML, cut short, not
/// UTF-8). `excerpt` is the start of the body as text, if it was text.
pub fn not_json(operation: &'static str, status: u16, excerpt: Option<&str>) -> Error {
    let reason = match excerpt {
        None => "the body is not valid UTF-8 text".to_owned(),
        Some("") => "the body is empty, expected JSON".to_owned(),
        Some(t) => format!("the body is not valid JSON: \"{}\"", limit(t, 120)),
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
    use crate::error::ApiErrorKind;
    use crate::model::documents::DocumentRecord;
    use crate::model::webhooks::Webhook;
    use crate::model::Unread;

    type Records = Checked<DocumentRecord<Unread>>;

    fn records(key: &str, body: &str) -> Result<usize, String> {
        check::<Records>("list documents", 200, key, body.as_bytes())
            .map(|list| list.len)
            .map_err(|e| {
                assert_eq!(e.kind(), ApiErrorKind::Decode);
                e.to_string()
            })
    }

    #[test]
    fn a_key_given_twice_keeps_its_last_value_as_json_parse_does() {
        assert_eq!(
            records("", r#"[{"id":5,"title":1,"id":"a","title":"t"}]"#),
            Ok(1)
        );
        let e = records("", r#"[{"id":"a","id":5}]"#).unwrap_err();
        assert!(
            e.contains("at [0].id: invalid type: floating point `5.0`, expected a string"),
            "{e}"
        );
        // Escaped keys, keys inside strings, nested records and the list's own key.
        assert_eq!(
            records("", r#"[{"i\u0064":5,"x":"\"id\":","id":"a"}]"#),
            Ok(1)
        );
        assert_eq!(
            records("items", r#"{"items":5,"items":[{"id":"a"}]}"#),
            Ok(1)
        );
        let e = records("items", r#"{"items":[{"id":"a"}],"items":[{"id":1}]}"#).unwrap_err();
        assert!(e.contains("at items[0].id"), "{e}");
        // Duplicates the check does not read are no matter; several names are each resolved.
        assert_eq!(
            records(
                "",
                r#"[{"id":"a","x":1,"x":[],"size":"s","size":2,"type":1,"type":"T"}]"#
            ),
            Ok(1)
        );
    }

    #[test]
    fn a_number_beyond_f64_is_a_number_as_json_parse_makes_it_infinity() {
        assert_eq!(
            records("", r#"[{"id":"a","size":1e400},{"id":"b","size":-1e999}]"#),
            Ok(2)
        );
        let big = format!(r#"[{{"id":"a","size":{}}}]"#, "9".repeat(400));
        assert_eq!(records("", &big), Ok(1));
        assert!(records("", r#"[{"id":1e400}]"#)
            .unwrap_err()
            .contains("at [0].id"));
    }

    #[test]
    fn a_record_is_an_object_never_an_array() {
        let e = records("", r#"[["d1"]]"#).unwrap_err();
        assert!(
            e.contains("at [0]: invalid type: sequence, expected struct DocumentRecord"),
            "{e}"
        );
        let e = check::<Vec<Webhook>>("list webhooks", 200, "", br#"[["w","UNIT_CREATED","u"]]"#)
            .unwrap_err();
        assert!(e.to_string().contains("at [0]"), "{e}");
    }

    #[test]
    fn the_words_are_the_clients() {
        let e = records("data", r#"{"data":[{"id":"a"},{"id":-3}]}"#).unwrap_err();
        assert!(
            e.ends_with("at data[1].id: invalid type: floating point `-3.0`, expected a string"),
            "{e}"
        );
        let e = records("", r#"[{"id":"a","size":"big"}]"#).unwrap_err();
        assert!(
            e.ends_with(r#"at [0].size: invalid type: string "big", expected f64"#),
            "{e}"
        );
        let e = records("", r#"[{"title":"no id"}]"#).unwrap_err();
        assert!(e.ends_with("at [0]: missing field `id`"), "{e}");
        assert!(!e.contains("line"), "{e}");
        let e = records("", r#"{"id":"a"}"#).unwrap_err();
        assert!(e.ends_with("invalid type: map, expected a sequence"), "{e}");
    }

    #[test]
    fn a_byte_order_mark_is_skipped_and_any_shape_is_read_leniently() {
        assert_eq!(records("", "\u{feff}[{\"id\":\"a\"}]"), Ok(1));
        assert!(read::<Webhook>(b"not json").is_none());
        assert!(
            read::<Webhook>(br#"{"id":"w","type":"T","url":"u","id":"v"}"#)
                .is_some_and(|w| w.id.is("v"))
        );
    }

    #[test]
    fn what_is_resolved_is_bounded_and_never_grows_the_text() {
        // 10,000 keys given twice: resolved in linear passes, each keeping the text's length.
        let mut body = String::from(r#"[{"id":"a""#);
        for _ in 0..10_000 {
            body.push_str(r#","size":1"#);
        }
        body.push_str("}]");
        assert_eq!(records("", &body), Ok(1));
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert!(records("", &deep).is_err());
    }

    #[cfg(not(target_arch = "wasm32"))]
    mod paths {
        use super::*;
        use crate::model::messages::Message;
        use proptest::prelude::*;
        use serde_json::Value;

        /// The path serde_path_to_error finds in a second, tracked read: what [`path_at`] must agree
        /// with.
        fn tracked<T: for<'de> Deserialize<'de>>(key: &str, body: &[u8]) -> Option<String> {
            let mut track = serde_path_to_error::Track::new();
            let mut json = serde_json::Deserializer::from_slice(body);
            let result: Result<T, _> = At::<T>::new(key).deserialize(
                serde_path_to_error::Deserializer::new(&mut json, &mut track),
            );
            let error = result.err()?;
            Some(match track.path().to_string().as_str() {
                "." => words(&error),
                path => format!("at {path}: {}", words(&error)),
            })
        }

        fn agree<T: for<'de> Deserialize<'de>>(key: &str, body: &[u8]) -> Result<(), String> {
            let ours = plain::<T>(key, body).err().map(|e| refusal(body, &e).1);
            let theirs = tracked::<T>(key, body);
            if ours == theirs {
                Ok(())
            } else {
                Err(format!(
                    "{}\n ours:   {ours:?}\n theirs: {theirs:?}",
                    String::from_utf8_lossy(body)
                ))
            }
        }

        const KEYS: [&str; 14] = [
            "id",
            "type",
            "url",
            "size",
            "title",
            "isRead",
            "attachments",
            "user",
            "sentBy",
            "text",
            "resourcePath",
            "name",
            "x",
            "deletedAt",
        ];

        /// A value of one of JSON's kinds, records among them (valid ones more often).
        fn value() -> impl Strategy<Value = Value> {
            let leaf = prop_oneof![
                Just(Value::Null),
                any::<bool>().prop_map(Value::Bool),
                (-1000i64..1000).prop_map(Value::from),
                Just(Value::from(1.5)),
                "[a-z]{0,3}".prop_map(Value::String),
                prop::sample::select(&["UNIT_CREATED", "ADMIN", "\"", "\n"][..])
                    .prop_map(Value::from),
            ];
            leaf.prop_recursive(4, 48, 6, |inner| {
                prop_oneof![
                    prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                    prop::collection::vec((prop::sample::select(&KEYS[..]), inner), 0..7).prop_map(
                        |kv| Value::Object(
                            kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
                        )
                    ),
                ]
            })
        }

        /// A record whose keys are mostly strings, some of any kind.
        fn record() -> impl Strategy<Value = Value> {
            prop::collection::vec(
                (
                    prop::sample::select(&KEYS[..]),
                    prop_oneof![4 => "[a-z]{1,3}".prop_map(Value::String), 1 => value()],
                ),
                0..8,
            )
            .prop_map(|kv| {
                let mut record = serde_json::Map::new();
                record.insert("id".into(), Value::from("i"));
                record.insert("type".into(), Value::from("T"));
                record.insert("url".into(), Value::from("u"));
                for (k, v) in kv {
                    record.insert(k.to_string(), v);
                }
                Value::Object(record)
            })
        }

        fn body() -> impl Strategy<Value = (Vec<u8>, Vec<u8>)> {
            prop_oneof![
                3 => prop::collection::vec(record(), 0..5).prop_map(Value::Array),
                1 => value(),
            ]
            .prop_map(|v| {
                (
                    serde_json::to_vec(&v).unwrap_or_default(),
                    serde_json::to_vec_pretty(&v).unwrap_or_default(),
                )
            })
        }

        proptest! {
            #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]
            #[test]
            fn every_check_survives_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..256), dup in any::<bool>()) {
                // Often JSON with a key given twice or a huge number, so that resolving runs too.
                let text = if dup {
                    let mut t = br#"[{"id":1e999,"id":"a","title":"#.to_vec();
                    t.extend_from_slice(&bytes);
                    t.extend_from_slice(b"}]");
                    t
                } else {
                    bytes
                };
                let _ = check::<Records>("list documents", 200, "", &text);
                let _ = check::<Records>("list documents", 200, "items", &text);
                let _ = check::<Vec<Webhook>>("list webhooks", 200, "data", &text);
                let _ = crate::api::messages::check_answer(200, &text);
                let _ = crate::api::messages::check_errors(500, &text);
                let _ = crate::api::status::ErrorBody::from_answer(&text);
                let _ = crate::api::webhooks::id_in_answer(&text);
                let _ = resolved(&text, &ReadDifferently::Duplicate("id".into()));
                let _ = resolved(&text, &ReadDifferently::OutOfRange);
            }

            #[test]
            fn one_walk_finds_the_path_serde_path_to_error_tracks((compact, pretty) in body()) {
                for body in [&compact, &pretty] {
                    agree::<Records>("", body).map_err(TestCaseError::fail)?;
                    agree::<Vec<Webhook>>("", body).map_err(TestCaseError::fail)?;
                    agree::<Checked<Option<Message<Unread>>>>("", body).map_err(TestCaseError::fail)?;
                    agree::<DocumentRecord<Unread>>("", body).map_err(TestCaseError::fail)?;
                    let wrapped = [&b"{\"x\":1,\"items\":"[..], body, b"}"].concat();
                    agree::<Records>("items", &wrapped).map_err(TestCaseError::fail)?;
                }
            }
        }
    }

    #[test]
    fn not_json_says_what_the_body_is() {
        let e = not_json("list webhooks", 200, Some("<html>"));
        assert!(e.to_string().contains("not valid JSON"), "{e}");
        assert!(not_json("x", 200, None).to_string().contains("UTF-8"));
        assert_eq!(limit("abcdef", 3), "abc…");
        assert_eq!(limit("ab", 3), "ab");
    }
}
