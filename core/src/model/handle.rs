//! A JavaScript value a caller passes in an input (a callback, an `AbortSignal`, a `Blob`, a
//! `Store`), carried through serde untouched: [`JsHandle`]. With the `js` feature it holds the
//! value (only serde-wasm-bindgen can carry one); without it there are no JavaScript values, so
//! the type has none and reading one always fails, while the inputs that hold one keep their
//! fields (and so their keys, [`super::fields_of`]).

use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize, Serializer};
use std::fmt;
use std::marker::PhantomData;
#[cfg(feature = "js")]
use wasm_bindgen::{JsCast, JsValue};

/// A JavaScript object carried through serde untouched, checked to be of its kind `K` when read.
pub struct JsHandle<K> {
    #[cfg(feature = "js")]
    value: JsValue,
    #[cfg(not(feature = "js"))]
    value: std::convert::Infallible,
    kind: PhantomData<K>,
}

/// The kinds of [`JsHandle`]: what the value must be, and how an error describes it.
pub trait HandleKind {
    /// Whether `value` is of this kind.
    #[cfg(feature = "js")]
    fn accepts(value: &JsValue) -> bool;
    /// What the value must be, for error messages (`a function`).
    const EXPECTED: &'static str;
}

/// A JavaScript function (`getToken`, `onRetry`, `onProgress`, ...).
pub enum FunctionKind {}
impl HandleKind for FunctionKind {
    #[cfg(feature = "js")]
    fn accepts(value: &JsValue) -> bool {
        value.is_function()
    }
    const EXPECTED: &'static str = "a function";
}

/// An `AbortSignal`.
pub enum SignalKind {}
impl HandleKind for SignalKind {
    #[cfg(feature = "js")]
    fn accepts(value: &JsValue) -> bool {
        value.is_instance_of::<web_sys::AbortSignal>()
    }
    const EXPECTED: &'static str = "an AbortSignal";
}

/// A `Blob` (or `File`).
pub enum BlobKind {}
impl HandleKind for BlobKind {
    #[cfg(feature = "js")]
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

#[cfg(feature = "js")]
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
    #[cfg(feature = "js")]
    fn clone(&self) -> Self {
        JsHandle {
            value: self.value.clone(),
            kind: PhantomData,
        }
    }

    #[cfg(not(feature = "js"))]
    fn clone(&self) -> Self {
        match self.value {}
    }
}

impl<K> fmt::Debug for JsHandle<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("JsHandle")
    }
}

#[cfg(feature = "js")]
impl<'de, K: HandleKind> Deserialize<'de> for JsHandle<K> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value: JsValue = serde_wasm_bindgen::preserve::deserialize(deserializer)?;
        if !K::accepts(&value) {
            return Err(de::Error::custom(format!("must be {}", K::EXPECTED)));
        }
        Ok(JsHandle {
            value,
            kind: PhantomData,
        })
    }
}

#[cfg(not(feature = "js"))]
impl<'de, K: HandleKind> Deserialize<'de> for JsHandle<K> {
    fn deserialize<D: Deserializer<'de>>(_: D) -> Result<Self, D::Error> {
        Err(de::Error::custom(format!("must be {}", K::EXPECTED)))
    }
}

impl<K> Serialize for JsHandle<K> {
    #[cfg(feature = "js")]
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serde_wasm_bindgen::preserve::serialize(&self.value, serializer)
    }

    #[cfg(not(feature = "js"))]
    fn serialize<S: Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        match self.value {}
    }
}
