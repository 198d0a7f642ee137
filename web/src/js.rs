//! Small bindings and conversions at the JavaScript boundary. Globals are looked up where the
//! code runs (window, worker or Node), never through `window`.

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
/// written inside a JSON string (a `"` or `\` in it escaped) replaced where it stands alone (not
/// inside another word), parsed again. Where that
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
    // Where it stands alone only (`crate::error::redact`): `client` inside `invalid_client` is
    // the service's word, kept as sent.
    let original = String::from(text);
    let hidden = crate::error::redact(original.clone(), needle);
    if hidden == original {
        return value;
    }
    let hidden = js_sys::JsString::from(hidden);
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

/// Sets `obj[key] = value` on an object made here (a failure to set is ignored: none of ours
/// has a setter that throws).
pub fn set(obj: &JsValue, key: &str, value: &JsValue) {
    let _ = js_sys::Reflect::set(obj, &JsValue::from_str(key), value);
}

/// Whether a value is `undefined` or `null`.
pub fn is_nullish(value: &JsValue) -> bool {
    value.is_undefined() || value.is_null()
}

/// A Rust value as a plain JavaScript object (what callbacks receive).
pub fn to_js<T: Serialize>(value: &T) -> JsValue {
    serde_wasm_bindgen::to_value(value).unwrap_or(JsValue::UNDEFINED)
}

/// Calls a caller's callback with one argument; what it returns or throws is ignored.
pub fn notify(callback: &js_sys::Function, argument: &JsValue) {
    let _ = callback.call1(&JsValue::NULL, argument);
}
