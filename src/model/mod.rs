//! The service's types and the inputs a caller passes, one file per resource. Each is one Rust
//! type with serde derives (how it crosses the JavaScript boundary, read and written by
//! serde-wasm-bindgen) and a tsify derive (its TypeScript declaration in `estatekit.d.ts`).
//!
//! Inputs refuse keys they do not have (a misspelt option is an error, not silently ignored; the
//! browser layer compares the caller's object with the keys serde reads, [`Input`]).
//! Responses are the other way round: decoding checks the documented fields and the caller gets
//! the browser's own parsed object, so every field the service sends, known or not, is kept.
//! Their strings are [`Text`]s: decoding checks that they are strings without copying them into
//! WebAssembly memory (only a `Text` the client compares or reads as a Rust string is copied).

use serde::de::{self, DeserializeOwned, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use std::fmt;
use wasm_bindgen::{JsCast, JsValue};

#[cfg(any(test, feature = "auth"))]
pub mod auth;
pub mod client;
pub mod documents;
pub mod messages;
pub mod webhooks;

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

/// A JavaScript object carried through serde untouched (a callback, an `AbortSignal`, a `Blob`),
/// checked to be of its kind `K` when read. Only serde-wasm-bindgen can carry it.
pub struct JsHandle<K> {
    value: JsValue,
    kind: std::marker::PhantomData<K>,
}

/// The kinds of [`JsHandle`]: what the value must be, and how an error describes it.
pub trait HandleKind {
    /// Whether `value` is of this kind.
    fn accepts(value: &JsValue) -> bool;
    /// What the value must be, for error messages (`a function`).
    const EXPECTED: &'static str;
}

/// A JavaScript function (`getToken`, `onRetry`, `onProgress`, ...).
pub enum FunctionKind {}
impl HandleKind for FunctionKind {
    fn accepts(value: &JsValue) -> bool {
        value.is_function()
    }
    const EXPECTED: &'static str = "a function";
}

/// An `AbortSignal`.
pub enum SignalKind {}
impl HandleKind for SignalKind {
    fn accepts(value: &JsValue) -> bool {
        value.is_instance_of::<web_sys::AbortSignal>()
    }
    const EXPECTED: &'static str = "an AbortSignal";
}

/// A `Blob` (or `File`).
pub enum BlobKind {}
impl HandleKind for BlobKind {
    fn accepts(value: &JsValue) -> bool {
        value.is_instance_of::<web_sys::Blob>()
    }
    const EXPECTED: &'static str = "a Blob or File";
}

/// A JavaScript callback given in options.
pub type Callback = JsHandle<FunctionKind>;
/// An `AbortSignal` given in options.
pub type Signal = JsHandle<SignalKind>;
/// The `Blob` of an upload.
pub type BlobHandle = JsHandle<BlobKind>;

impl<K> JsHandle<K> {
    /// The JavaScript value.
    pub fn value(&self) -> &JsValue {
        &self.value
    }

    /// The value as the web-sys type `T` (checked when it was read).
    pub fn cast<T: JsCast>(&self) -> &T {
        self.value.unchecked_ref()
    }
}

impl<K> Clone for JsHandle<K> {
    fn clone(&self) -> Self {
        JsHandle {
            value: self.value.clone(),
            kind: std::marker::PhantomData,
        }
    }
}

impl<K> fmt::Debug for JsHandle<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("JsHandle")
    }
}

impl<'de, K: HandleKind> Deserialize<'de> for JsHandle<K> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value: JsValue = serde_wasm_bindgen::preserve::deserialize(deserializer)?;
        if !K::accepts(&value) {
            return Err(de::Error::custom(format!("must be {}", K::EXPECTED)));
        }
        Ok(JsHandle {
            value,
            kind: std::marker::PhantomData,
        })
    }
}

impl<K> Serialize for JsHandle<K> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serde_wasm_bindgen::preserve::serialize(&self.value, serializer)
    }
}

/// Any JSON object, checked to be one (a message's `user`, whose fields are not documented).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnyObject {}

/// A string the service sent, in a response record. In the browser, read through
/// serde-wasm-bindgen, it stays the JavaScript string: decoding checks that it is one (through
/// serde-wasm-bindgen's `preserve`) without copying its text into WebAssembly memory. Read by any
/// other deserializer (serde_json in the tests), it is read as a Rust string.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Text(TextInner);

#[cfg(target_arch = "wasm32")]
type TextInner = js_sys::JsString;
#[cfg(not(target_arch = "wasm32"))]
type TextInner = String;

impl Text {
    /// The text as a Rust string (copied, in the browser).
    pub fn to_rust(&self) -> String {
        String::from(&self.0)
    }

    /// Whether the text is `other`.
    pub fn is(&self, other: &str) -> bool {
        self.0 == *other
    }
}

impl From<&str> for Text {
    fn from(text: &str) -> Self {
        Text(TextInner::from(text))
    }
}

/// Whether `D` is serde-wasm-bindgen's deserializer (also behind serde_path_to_error's
/// wrapper): the only one that can hand over a JavaScript value as it is. Serde offers no way to
/// ask a deserializer what it is, so its type's name is looked at.
#[cfg(target_arch = "wasm32")]
fn reads_javascript<D>() -> bool {
    // Two fixed-length comparisons (a substring search here costs more than the check it saves).
    let name = std::any::type_name::<D>();
    name.ends_with("serde_wasm_bindgen::de::Deserializer")
        || name.ends_with("serde_wasm_bindgen::de::Deserializer>")
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[cfg(target_arch = "wasm32")]
        if reads_javascript::<D>() {
            let value: JsValue = serde_wasm_bindgen::preserve::deserialize(deserializer)?;
            return match value.dyn_into::<js_sys::JsString>() {
                Ok(text) => Ok(Text(text)),
                Err(other) => Err(de::Error::invalid_type(unexpected(&other), &"a string")),
            };
        }
        String::deserialize(deserializer).map(|text| Text::from(text.as_str()))
    }
}

/// What a JavaScript value that is not a string is, for a decoding error (serde-wasm-bindgen's
/// own words: `invalid type: floating point `5`, expected a string`).
#[cfg(target_arch = "wasm32")]
fn unexpected(value: &JsValue) -> de::Unexpected<'_> {
    if value.is_null() || value.is_undefined() {
        de::Unexpected::Unit
    } else if let Some(b) = value.as_bool() {
        de::Unexpected::Bool(b)
    } else if let Some(n) = value.as_f64() {
        de::Unexpected::Float(n)
    } else if js_sys::Array::is_array(value) {
        de::Unexpected::Seq
    } else {
        de::Unexpected::Map
    }
}

impl Serialize for Text {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.to_rust())
    }
}

#[cfg(test)]
mod tests {
    use super::client::{CallOptions, ClientOptions, RetryOptions};
    use super::documents::{ListDocumentsQuery, UploadDocumentInput, UploadOptions};
    use super::messages::{GraphPaging, MessageFilter, MessagesOptions};
    use super::webhooks::RegisterWebhookInput;
    use super::*;

    #[test]
    fn fields_of_gives_the_keys_serde_reads() {
        assert_eq!(fields_of::<GraphPaging>(), ["skip", "take"]);
        assert_eq!(fields_of::<RegisterWebhookInput>(), ["type", "url"]);
        assert_eq!(
            fields_of::<RetryOptions>(),
            ["limit", "baseDelayMs", "maxDelayMs"]
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
        use super::client::{RateLimitOptions, RATE_LIMIT_KEYS};
        assert_eq!(fields_of::<RateLimitOptions>(), ["perMinute"]);
        assert_eq!(RATE_LIMIT_KEYS, ["perMinute", "store", "key"]);
    }
}
