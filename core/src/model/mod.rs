//! The service's types and the inputs a caller passes, one file per resource. Each is one Rust
//! type with serde derives (how it crosses the JavaScript boundary, read and written by
//! serde-wasm-bindgen) and, with the `js` feature, a tsify derive (its TypeScript declaration in
//! `estatekit.d.ts`). A caller's JavaScript value inside an input is a [`JsHandle`].
//!
//! Inputs refuse keys they do not have (a misspelt option is an error, not silently ignored; the
//! browser layer compares the caller's object with the keys serde reads, [`Input`]).
//! Responses are the other way round: the answer's bytes are checked against the documented
//! fields by serde_json, and the caller gets the browser's own parsed object, so every field the
//! service sends, known or not, is kept. A record's strings are a type parameter: [`Unread`]
//! where the client only checks them (nothing is copied), [`Text`] where it reads them.

use serde::de::{self, DeserializeOwned, Deserializer, Visitor};
use serde::Deserialize;
use std::fmt;

#[cfg(any(test, feature = "auth"))]
pub mod auth;
pub mod documents;
pub mod events;
pub mod handle;
pub mod messages;
pub mod options;
pub mod webhooks;

pub use handle::{BlobHandle, Callback, HandleKind, JsHandle, Signal};

/// An object a caller passes (options, a filter, an upload's input). serde-wasm-bindgen reads
/// only the keys a struct declares, so the browser layer looks for the others itself: a key with
/// a value that is not among [`fields_of`] the type is refused, and so is one inside a nested
/// input, whose keys [`Input::nested`] gives.
pub trait Input: DeserializeOwned {
    /// The keys of the input object `key` holds, when it holds one (`retry`, `paging`).
    fn nested(key: &str) -> Option<&'static [&'static str]> {
        let _ = key;
        None
    }
}

/// The keys serde reads for the struct `T`, after renames (its derive's `FIELDS`), or none when
/// `T` is not a struct. serde is asked through a deserializer that only takes note of them: no
/// value is read.
pub fn fields_of<T: DeserializeOwned>() -> &'static [&'static str] {
    struct Listen<'a>(&'a mut &'static [&'static str]);
    impl<'de> Deserializer<'de> for Listen<'_> {
        type Error = de::value::Error;
        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
            Err(de::Error::custom("not a struct"))
        }
        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Self::Error> {
            *self.0 = fields;
            Err(de::Error::custom("only listening"))
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
            option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
            ignored_any
        }
    }
    let mut fields: &'static [&'static str] = &[];
    let _ = T::deserialize(Listen(&mut fields));
    fields
}

/// Any JSON object, checked to be one (a message's `user`, whose fields are not documented).
/// An array is not one (serde would read it as a struct's fields in order).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AnyObject {}

impl<'de> Deserialize<'de> for AnyObject {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = AnyObject;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("struct AnyObject")
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<AnyObject, A::Error> {
                while map
                    .next_entry::<de::IgnoredAny, de::IgnoredAny>()?
                    .is_some()
                {}
                Ok(AnyObject {})
            }
        }
        deserializer.deserialize_map(V)
    }
}

/// Any JSON object, in the model's JSON Schemas.
#[cfg(feature = "schema")]
impl schemars::JsonSchema for AnyObject {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "AnyObject".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "object" })
    }
}

/// A string, in the model's JSON Schemas.
#[cfg(feature = "schema")]
impl schemars::JsonSchema for Text {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Text".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "string" })
    }
}

/// A string the service sent, in a response record, read as a Rust string: the representation
/// of a record's strings where the client reads them (a webhook's `type`, `url` and `id`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Text(String);

impl Text {
    /// The text as a Rust string.
    pub fn to_rust(&self) -> String {
        self.0.clone()
    }

    /// Whether the text is `other`.
    pub fn is(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl From<&str> for Text {
    fn from(text: &str) -> Self {
        Text(text.to_owned())
    }
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer).map(Text)
    }
}

/// A string the service sent, in a response record, only checked: the representation of a
/// record's strings where the client only checks the answer (document lists and records,
/// messages). Reading it checks that the value is a string and keeps nothing: serde_json hands
/// over a slice of the body (or of its buffer, for a string with escapes), never a copy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Unread;

impl<'de> Deserialize<'de> for Unread {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Unread;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<Unread, E> {
                Ok(Unread)
            }
            fn visit_bytes<E: de::Error>(self, _: &[u8]) -> Result<Unread, E> {
                Ok(Unread)
            }
        }
        // serde_json hands a string's bytes over as they are, escapes resolved, without checking
        // that they are UTF-8 (the browser's fatal decoder already did) or that an escaped
        // surrogate has its pair (`JSON.parse` takes a lone one too).
        deserializer.deserialize_bytes(V)
    }
}

/// A deserializer that reads a struct only from an object: serde's derive also reads one from
/// an array (its fields in order), which would let `[["d1"]]` pass as a list of records. Used
/// by [`objects_only!`] for every struct of an answer.
pub struct MapOnly<D>(pub D);

impl<'de, D: Deserializer<'de>> Deserializer<'de> for MapOnly<D> {
    type Error = D::Error;
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_any(visitor)
    }
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_struct(name, fields, NoSeq(visitor))
    }
    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
        ignored_any
    }
}

/// A struct's visitor that takes a map only (an array is refused as `sequence`).
struct NoSeq<V>(V);

impl<'de, V: Visitor<'de>> Visitor<'de> for NoSeq<V> {
    type Value = V::Value;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(f)
    }
    fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.0.visit_map(map)
    }
}

/// `Deserialize` for structs declared `#[serde(remote = "Self")]` (whose derive writes an
/// inherent `deserialize` instead): the derived code, read through [`MapOnly`].
#[macro_export]
macro_rules! objects_only {
    ($($name:ident $(<$param:ident>)?),* $(,)?) => {$(
        impl<'de $(, $param: serde::Deserialize<'de> + Default)?> serde::Deserialize<'de>
            for $name $(<$param>)?
        {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                $name::deserialize($crate::model::MapOnly(deserializer))
            }
        }
    )*};
}

#[cfg(test)]
mod tests {
    use super::documents::{ListDocumentsQuery, UploadDocumentInput, UploadOptions};
    use super::messages::{GraphPaging, MessageFilter, MessagesOptions};
    use super::options::{CallOptions, ClientOptions, RetryOptions};
    use super::webhooks::RegisterWebhookInput;
    use super::*;

    #[test]
    fn fields_of_gives_the_keys_serde_reads() {
        assert_eq!(fields_of::<GraphPaging>(), ["skip", "take"]);
        assert_eq!(fields_of::<RegisterWebhookInput>(), ["type", "url"]);
        assert_eq!(
            fields_of::<RetryOptions>(),
            ["maxRetries", "baseDelayMs", "maxDelayMs"]
        );
        assert!(fields_of::<String>().is_empty());
        assert!(fields_of::<Option<GraphPaging>>().is_empty());
    }

    /// The keys of `T` that hold a nested input, each checked to have keys of its own.
    fn nested_keys<T: Input>() -> Vec<&'static str> {
        fields_of::<T>()
            .iter()
            .copied()
            .filter(|key| {
                T::nested(key)
                    .inspect(|k| assert!(!k.is_empty(), "{key}"))
                    .is_some()
            })
            .collect()
    }

    #[test]
    fn nested_inputs_are_keys_of_their_parent() {
        assert_eq!(nested_keys::<ClientOptions>(), ["retry", "rateLimit"]);
        assert_eq!(nested_keys::<MessagesOptions>(), ["paging", "sort"]);
        assert_eq!(nested_keys::<UploadDocumentInput>(), ["metadata"]);
        assert!(nested_keys::<CallOptions>().is_empty());
        assert!(nested_keys::<UploadOptions>().is_empty());
        assert!(nested_keys::<ListDocumentsQuery>().is_empty());
        assert!(nested_keys::<MessageFilter>().is_empty());
        assert!(nested_keys::<RegisterWebhookInput>().is_empty());
    }

    #[test]
    fn rate_limit_keys_are_serdes_and_the_two_read_by_hand() {
        use super::options::{RateLimitOptions, RATE_LIMIT_KEYS};
        assert_eq!(fields_of::<RateLimitOptions>(), ["perMinute"]);
        assert_eq!(RATE_LIMIT_KEYS, ["perMinute", "store", "key"]);
    }
}
