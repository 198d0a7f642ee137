//! The service's types and the inputs a caller passes, one file per resource. Each is one Rust
//! type with serde derives (how it crosses the JavaScript boundary, read and written by
//! serde-wasm-bindgen) and a tsify derive (its TypeScript declaration in `estatekit.d.ts`).
//!
//! Inputs refuse keys they do not have (a misspelt option is an error, not silently ignored; the
//! browser layer finds such keys by comparing the caller's object with what serde writes back).
//! Responses are the other way round: decoding checks the documented fields and the caller gets
//! the browser's own parsed object, so every field the service sends, known or not, is kept.

use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize, Serializer};
use std::fmt;
use wasm_bindgen::{JsCast, JsValue};

pub mod client;
pub mod documents;
pub mod messages;
pub mod webhooks;

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
