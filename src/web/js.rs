//! Bindings to JavaScript globals. Globals are looked up where the code runs (window,
//! worker or Node), never through `window`.

use crate::api::input::InputValue;
use crate::api::json_view::{JsonView, Kind};
use crate::api::schema::{Mismatch, Ty};
use js_sys::{JsString, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    /// The global `fetch(url, init)` (no `Request` object: fetch would copy it again).
    #[wasm_bindgen(catch, js_name = fetch)]
    pub fn fetch(url: &str, init: &web_sys::RequestInit) -> Result<Promise, JsValue>;

    /// The global `setTimeout`.
    #[wasm_bindgen(js_name = setTimeout)]
    pub fn set_timeout(handler: &js_sys::Function, ms: i32) -> JsValue;

    /// The global `clearTimeout`.
    #[wasm_bindgen(js_name = clearTimeout)]
    pub fn clear_timeout(id: &JsValue);

    /// `JSON.parse` on a JavaScript string (no copy through WebAssembly memory).
    #[wasm_bindgen(catch, js_namespace = JSON, js_name = parse)]
    pub fn json_parse(text: &JsString) -> Result<JsValue, JsValue>;

    /// `TextDecoder`, used with `fatal: true` so that bytes that are not UTF-8 are detected.
    #[wasm_bindgen(js_name = TextDecoder)]
    pub type FatalDecoder;

    #[wasm_bindgen(constructor, catch, js_class = TextDecoder)]
    fn new_with_options(label: &str, options: &JsValue) -> Result<FatalDecoder, JsValue>;

    /// Decodes bytes into a JavaScript string; throws on invalid UTF-8.
    #[wasm_bindgen(method, catch, js_class = TextDecoder)]
    pub fn decode(this: &FatalDecoder, input: &JsValue) -> Result<JsString, JsValue>;
}

thread_local! {
    static DECODER: std::cell::RefCell<Option<FatalDecoder>> = const { std::cell::RefCell::new(None) };
}

impl FatalDecoder {
    /// The UTF-8 decoder that throws on invalid bytes (made once; decoding is stateless).
    pub fn utf8() -> Result<FatalDecoder, JsValue> {
        DECODER.with(|cached| {
            let copy = |d: &FatalDecoder| -> FatalDecoder {
                let value: &JsValue = d.as_ref();
                value.clone().unchecked_into()
            };
            if let Some(d) = cached.borrow().as_ref() {
                return Ok(copy(d));
            }
            let options = js_sys::Object::new();
            js_sys::Reflect::set(&options, &"fatal".into(), &JsValue::TRUE)?;
            let decoder = FatalDecoder::new_with_options("utf-8", &options)?;
            cached.replace(Some(copy(&decoder)));
            Ok(decoder)
        })
    }
}

/// `Date.now()`.
pub fn now_ms() -> f64 {
    js_sys::Date::now()
}

/// Reads `obj[key]`, or `undefined` when `obj` is not an object or the read throws.
pub fn get(obj: &JsValue, key: &str) -> JsValue {
    if obj.is_object() || obj.is_function() {
        js_sys::Reflect::get(obj, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
    } else {
        JsValue::UNDEFINED
    }
}

/// Sets `obj[key] = value`, ignoring failures (frozen objects).
pub fn set(obj: &JsValue, key: &str, value: &JsValue) {
    let _ = js_sys::Reflect::set(obj, &JsValue::from_str(key), value);
}

/// Copies a caller's argument into an [`InputValue`]: plain objects with all their own keys
/// (so misspelt options are reported), arrays, and primitives; anything else (functions,
/// `Blob`s, `AbortSignal`s, class instances, values nested deeper than 16 levels) is opaque.
pub fn to_input(value: &JsValue) -> InputValue {
    to_input_at(value, 0)
}

fn to_input_at(value: &JsValue, depth: u32) -> InputValue {
    if value.is_undefined() {
        return InputValue::Undefined;
    }
    if value.is_null() {
        return InputValue::Null;
    }
    if let Some(b) = value.as_bool() {
        return InputValue::Bool(b);
    }
    if let Some(n) = value.as_f64() {
        return InputValue::Number(n);
    }
    if let Some(s) = value.as_string() {
        return InputValue::String(s);
    }
    if value.is_function() {
        return InputValue::Opaque("a function");
    }
    if depth >= 16 {
        return InputValue::Opaque("a value nested too deeply");
    }
    if js_sys::Array::is_array(value) {
        let array: &js_sys::Array = value.unchecked_ref();
        return InputValue::Array(array.iter().map(|v| to_input_at(&v, depth + 1)).collect());
    }
    if !value.is_object() {
        return InputValue::Opaque("a symbol or bigint");
    }
    let object: &js_sys::Object = value.unchecked_ref();
    let proto = js_sys::Object::get_prototype_of(value);
    let object_prototype = js_sys::Object::get_prototype_of(&js_sys::Object::new().into());
    let plain = proto.is_null() || proto == object_prototype;
    if !plain {
        return InputValue::Opaque("an object that is not plain data");
    }
    let entries = js_sys::Object::keys(object)
        .iter()
        .filter_map(|k| {
            let key = k.as_string()?;
            let v = js_sys::Reflect::get(value, &k).unwrap_or(JsValue::UNDEFINED);
            Some((key, to_input_at(&v, depth + 1)))
        })
        .collect();
    InputValue::Object(entries)
}

thread_local! {
    /// JavaScript strings for the member names decoders look up, made once.
    static KEYS: std::cell::RefCell<Vec<(&'static str, JsValue)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

fn key(name: &'static str) -> JsValue {
    KEYS.with(|keys| {
        let mut keys = keys.borrow_mut();
        if let Some((_, k)) = keys
            .iter()
            .find(|(n, _)| std::ptr::eq(*n, name) || *n == name)
        {
            return k.clone();
        }
        let k = JsValue::from_str(name);
        keys.push((name, k.clone()));
        k
    })
}

/// Decoders read the browser's own parsed object in place: type checks and member reads are
/// single calls, and strings are copied into WebAssembly memory only when their text is used.
impl JsonView for JsValue {
    fn kind(&self) -> Kind {
        // Most frequent first: every test is a call into JavaScript.
        if self.is_string() {
            Kind::String
        } else if self.as_f64().is_some() {
            Kind::Number
        } else if self.is_object() {
            if js_sys::Array::is_array(self) {
                Kind::Array
            } else {
                Kind::Object
            }
        } else if self.as_bool().is_some() {
            Kind::Bool
        } else {
            Kind::Null
        }
    }

    fn get(&self, name: &'static str) -> Option<JsValue> {
        // Throws (so `None`) on primitives; `undefined` for absent members has kind Null.
        js_sys::Reflect::get(self, &key(name)).ok()
    }

    fn len(&self) -> usize {
        if js_sys::Array::is_array(self) {
            self.unchecked_ref::<js_sys::Array>().length() as usize
        } else {
            0
        }
    }

    fn at(&self, index: usize) -> Option<JsValue> {
        // Only called on values whose kind is Array.
        let index = u32::try_from(index).ok()?;
        Some(self.unchecked_ref::<js_sys::Array>().get(index))
    }

    fn text(&self) -> Option<String> {
        self.as_string()
    }

    fn number(&self) -> Option<f64> {
        self.as_f64()
    }

    fn check_shape(&self, ty: &'static Ty) -> Result<(), Mismatch> {
        super::shape::check(self, ty)
    }
}
