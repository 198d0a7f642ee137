//! A read-only view of a parsed JSON value. Decoders are written once against [`JsonView`]:
//! in the browser it is the object `JSON.parse` produced (no copy into WebAssembly memory),
//! natively it is a `serde_json::Value` (unit tests and property tests).

use super::schema::{Mismatch, Ty};

/// The JSON type of a value (`undefined` counts as null).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `null` (or `undefined`).
    Null,
    /// `true` / `false`.
    Bool,
    /// A number.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object that is not an array.
    Object,
}

impl Kind {
    /// "a string", "an array", ... for error messages.
    pub fn described(self) -> &'static str {
        match self {
            Kind::Null => "null",
            Kind::Bool => "a boolean",
            Kind::Number => "a number",
            Kind::String => "a string",
            Kind::Array => "an array",
            Kind::Object => "an object",
        }
    }
}

/// Read access to a parsed JSON value.
pub trait JsonView: Sized {
    /// The value's JSON type.
    fn kind(&self) -> Kind;
    /// The member `key` of an object: `None`, or a value of kind [`Kind::Null`], when it is
    /// absent or this is not an object (callers treat both alike).
    fn get(&self, key: &'static str) -> Option<Self>;
    /// The number of elements of an array (0 for anything else).
    fn len(&self) -> usize;
    /// Element `index` of an array.
    fn at(&self, index: usize) -> Option<Self>;
    /// The text of a string value.
    fn text(&self) -> Option<String>;
    /// The value of a number.
    fn number(&self) -> Option<f64>;

    /// Checks the whole value against `ty`: by default a walk member by member
    /// ([`crate::api::schema::check_walk`]); a view that can do it in one go overrides this
    /// (the browser's view does, and then the walk is not even compiled into the module).
    fn check_shape(&self, ty: &'static Ty) -> Result<(), Mismatch>
    where
        Self: Sized,
    {
        crate::api::schema::check_walk(self, ty)
    }

    /// Whether this is an array with no elements (or not an array).
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(any(test, not(target_arch = "wasm32")))]
impl JsonView for &serde_json::Value {
    fn kind(&self) -> Kind {
        match self {
            serde_json::Value::Null => Kind::Null,
            serde_json::Value::Bool(_) => Kind::Bool,
            serde_json::Value::Number(_) => Kind::Number,
            serde_json::Value::String(_) => Kind::String,
            serde_json::Value::Array(_) => Kind::Array,
            serde_json::Value::Object(_) => Kind::Object,
        }
    }

    fn get(&self, key: &'static str) -> Option<Self> {
        self.as_object().and_then(|o| o.get(key))
    }

    fn len(&self) -> usize {
        self.as_array().map_or(0, Vec::len)
    }

    fn at(&self, index: usize) -> Option<Self> {
        self.as_array().and_then(|a| a.get(index))
    }

    fn text(&self) -> Option<String> {
        self.as_str().map(str::to_string)
    }

    fn number(&self) -> Option<f64> {
        self.as_f64()
    }
}
