//! Small bindings and conversions at the JavaScript boundary. Globals are looked up where the
//! code runs (window, worker or Node), never through `window`.

use crate::api::response::{in_js_terms, serde_message};
use crate::error::Error;
use crate::model::{fields_of, Input};
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    /// The global `setTimeout`.
    #[wasm_bindgen(js_name = setTimeout)]
    pub fn set_timeout(handler: &js_sys::Function, ms: i32) -> JsValue;

    /// The global `clearTimeout`.
    #[wasm_bindgen(js_name = clearTimeout)]
    pub fn clear_timeout(id: &JsValue);

    /// `performance.now()`: milliseconds with sub-millisecond precision, for durations.
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    pub fn now_precise() -> f64;

    /// `JSON.parse` of a JavaScript string (js-sys's takes a Rust `&str`, which would copy the
    /// text into JavaScript again).
    #[wasm_bindgen(js_namespace = JSON, js_name = parse, catch)]
    pub fn parse_json(text: &js_sys::JsString) -> Result<JsValue, JsValue>;

    /// A `TextDecoder` (made by web-sys) seen through [`TextDecoderJs::decode`].
    type TextDecoderJs;

    /// `TextDecoder.prototype.decode`, answering the JavaScript string (web-sys's copies it
    /// into a Rust `String`).
    #[wasm_bindgen(method, catch)]
    fn decode(this: &TextDecoderJs, input: &JsValue) -> Result<js_sys::JsString, JsValue>;
}

thread_local! {
    /// A fatal UTF-8 decoder (throws on malformed input), made once.
    static UTF8: Option<web_sys::TextDecoder> = {
        let options = web_sys::TextDecoderOptions::new();
        options.set_fatal(true);
        web_sys::TextDecoder::new_with_label_and_options("utf-8", &options).ok()
    };
}

/// The text of a body (an `ArrayBuffer`) decoded by the browser as UTF-8, without a leading
/// byte order mark (as `Response.text()` does), or `None` when it is not UTF-8 (or when the
/// engine has no UTF-8 `TextDecoder`, which every supported browser and Node 20 have).
pub fn utf8_text(buffer: &JsValue) -> Option<js_sys::JsString> {
    UTF8.with(|decoder| {
        let decoder: &TextDecoderJs = decoder.as_ref()?.unchecked_ref();
        decoder.decode(buffer).ok()
    })
}

/// A parsed JSON document that goes into an error (an error body, GraphQL `errors` or partial
/// `data`) with `token` hidden in every string and key: its JSON text, with the token as it is
/// written inside a JSON string (a `"` or `\` in it escaped) replaced, parsed again. Where that
/// replacement broke the text's syntax (a token such as `1` or `true`), the redacted text itself
/// is what the error carries.
pub fn redact_value(value: JsValue, token: &str) -> JsValue {
    if token.is_empty() || value.is_undefined() {
        return value;
    }
    let Ok(text) = js_sys::JSON::stringify(&value) else {
        return JsValue::UNDEFINED;
    };
    // Tokens are visible ASCII: inside a JSON string only `"` and `\` are escaped.
    let needle = token.replace('\\', "\\\\").replace('"', "\\\"");
    let needle = needle.as_str();
    if !text.includes(needle, 0) {
        return value;
    }
    let hidden = text.replace_all(needle, crate::error::REDACTED);
    parse_json(&hidden).unwrap_or_else(|_| hidden.into())
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

/// Whether a value is `undefined` or `null`.
pub fn is_nullish(value: &JsValue) -> bool {
    value.is_undefined() || value.is_null()
}

/// Reads a caller's argument into `T` with serde-wasm-bindgen; an error names the field path
/// under `name` (`invalid options.paging.take: ...`, `invalid input.file: is required`). Keys
/// that `T` does not have are refused too (`invalid options.retries: is not a known option`).
pub fn input<T: Input>(name: &str, value: JsValue) -> Result<T, Error> {
    let deserializer = serde_wasm_bindgen::Deserializer::from(value.clone());
    let read: T = serde_path_to_error::deserialize(deserializer)
        .map_err(|e| input_error(name, &e.path().to_string(), &serde_message(e.inner())))?;
    // serde-wasm-bindgen reads only the fields a struct declares (so `deny_unknown_fields`
    // cannot work, its issue #39): the caller's keys are compared with serde's own list.
    if let Some(field) = unknown_key(&value, fields_of::<T>(), T::nested, name) {
        return Err(Error::invalid(
            field,
            "is not a known option (check its spelling)",
        ));
    }
    Ok(read)
}

/// The error of an input that serde refused at `path` under `name`, in the caller's words. Not
/// generic (nor inlined into `input`'s copies, one per input type): the module holds it once.
#[inline(never)]
fn input_error(name: &str, path: &str, serde: &str) -> Error {
    let mut field = match path {
        "." => name.to_owned(),
        p if p.starts_with('[') => format!("{name}{p}"),
        p => format!("{name}.{p}"),
    };
    // A missing key is named in the path rather than in the reason.
    let reason = match serde
        .strip_prefix("missing field `")
        .and_then(|m| m.strip_suffix('`'))
    {
        Some(key) => {
            field = format!("{field}.{key}");
            "is required".to_owned()
        }
        None => in_js_terms(serde),
    };
    Error::invalid(field, reason)
}

/// Whether a value is a plain object (`{...}`), the only kind of input looked into for keys.
fn is_plain_object(value: &JsValue) -> bool {
    value.is_object() && !js_sys::Array::is_array(value) && {
        let proto = js_sys::Object::get_prototype_of(value);
        proto.is_null() || proto == js_sys::Object::get_prototype_of(&js_sys::Object::new())
    }
}

/// The path of the first key of the caller's `given` object that has a value but is not among
/// `known`, looking into the objects under the keys `nested` names (with their own keys).
fn unknown_key(
    given: &JsValue,
    known: &[&str],
    nested: fn(&str) -> Option<&'static [&'static str]>,
    path: &str,
) -> Option<String> {
    if !is_plain_object(given) {
        return None;
    }
    let object: &js_sys::Object = given.unchecked_ref();
    for key in js_sys::Object::keys(object) {
        let value = js_sys::Reflect::get(given, &key).unwrap_or(JsValue::UNDEFINED);
        if is_nullish(&value) {
            continue;
        }
        let key = key.as_string().unwrap_or_default();
        let path = format!("{path}.{key}");
        if !known.contains(&key.as_str()) {
            return Some(path);
        }
        if let Some(inner) = nested(&key) {
            if let Some(found) = unknown_key(&value, inner, |_| None, &path) {
                return Some(found);
            }
        }
    }
    None
}

/// A required object argument (`undefined`/`null` is refused as missing).
pub fn required<T: Input>(name: &str, value: JsValue) -> Result<T, Error> {
    if is_nullish(&value) {
        return Err(Error::invalid(name, "is required"));
    }
    input(name, value)
}

/// An optional object argument (`undefined`/`null` gives the defaults).
pub fn optional<T: Input + Default>(name: &str, value: JsValue) -> Result<T, Error> {
    if is_nullish(&value) {
        return Ok(T::default());
    }
    input(name, value)
}

/// A Rust value as a plain JavaScript object (what callbacks receive).
pub fn to_js<T: Serialize>(value: &T) -> JsValue {
    serde_wasm_bindgen::to_value(value).unwrap_or(JsValue::UNDEFINED)
}

/// Calls a caller's callback with one argument; what it returns or throws is ignored.
pub fn notify(callback: &js_sys::Function, argument: &JsValue) {
    let _ = callback.call1(&JsValue::NULL, argument);
}
