//! The WebAssembly module of `estatekit/webhooks`: [`check_event`] checks a delivery (already
//! parsed by `JSON.parse` in the wrapper, js/webhooks.js) against the types of
//! [`estatekit_events`] and hands back the caller's own object, so that every member is kept
//! and every value is as sent. The TypeScript declarations of those types come from their tsify
//! derives and are emitted into this module's glue (`estatekit_webhooks_wasm.d.ts`).
//!
//! This crate does not depend on the `estatekit` crate: that crate's `#[wasm_bindgen]` exports
//! (the `Client`) would be linked into this module, and this module into nothing else.
#![warn(missing_docs)]

use estatekit_events::{check_data_at, excerpt, operation, Delivery, Operation};
use js_sys::{Array, Object, Reflect};
use serde::{Deserialize, Deserializer};
use serde_path_to_error::Track;
use wasm_bindgen::prelude::*;

// Re-exported so that their tsify declarations are part of this module's glue.
pub use estatekit_events::{KnownEvent, UnknownTypeEvent, WebhookEvent};

/// A JavaScript value carried through serde as it is (serde-wasm-bindgen's `preserve`): the
/// envelope's `data`, which is read only when its type has a known shape.
struct Kept(JsValue);

impl<'de> Deserialize<'de> for Kept {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        serde_wasm_bindgen::preserve::deserialize(deserializer).map(Kept)
    }
}

/// Longest error message, in characters: a message never carries the whole body (a value that
/// serde quotes, a string of megabytes, is cut).
const MESSAGE_MAX: usize = 300;

/// The `WebhookEventError` of a bad envelope: kind `invalid_event`, `path` the JSON path of the first
/// violation (`.` for the envelope itself).
fn invalid(path: &str, reason: &str) -> JsValue {
    // serde-wasm-bindgen's errors are JavaScript errors, displayed `Error: ...`; serde's words
    // are told in JavaScript terms (`is the number `1.5`, expected a string`).
    let reason = estatekit_vocab::in_js_terms(reason.strip_prefix("Error: ").unwrap_or(reason));
    let at = if path == "." {
        String::new()
    } else {
        format!(" at {path}")
    };
    let message = excerpt(&format!("invalid webhook event{at}: {reason}"), MESSAGE_MAX);
    WebhookEventError::new(&message, path).into()
}

#[wasm_bindgen(module = "/../js/webhook_event_error.js")]
extern "C" {
    /// The package's `WebhookEventError` class (the receiver's JavaScript makes it too).
    type WebhookEventError;

    /// `new WebhookEventError(message, path)`.
    #[wasm_bindgen(constructor)]
    fn new(message: &str, path: &str) -> WebhookEventError;
}

/// What a JSON value that is not an object is, for the message.
fn what(value: &JsValue) -> &'static str {
    if value.is_null() {
        "null"
    } else if Array::is_array(value) {
        "an array"
    } else if value.is_string() {
        "a string"
    } else if value.as_f64().is_some() {
        "a number"
    } else if value.as_bool().is_some() {
        "a boolean"
    } else {
        "not JSON"
    }
}

/// Checks a parsed delivery: the envelope (every member present and of its type, `createdAt` an
/// ISO 8601 timestamp), then `data` against its type's shape when the type has one. Returns the
/// same object for the 28 types; for an `operation` outside them, a shallow copy with
/// `operation: null` and the type in `rawOperation` (an unknown-type event). Throws an
/// `WebhookEventError` (kind `invalid_event`) naming the path of the first violation.
#[wasm_bindgen(js_name = checkEvent)]
pub fn check_event(value: JsValue) -> Result<JsValue, JsValue> {
    if !value.is_object() || Array::is_array(&value) {
        return Err(invalid(
            ".",
            &format!(
                "expected a JSON object (the envelope), got {}",
                what(&value)
            ),
        ));
    }
    let mut track = Track::new();
    let delivery = Delivery::<Kept>::deserialize(serde_path_to_error::Deserializer::new(
        serde_wasm_bindgen::Deserializer::from(value.clone()),
        &mut track,
    ))
    .map_err(|e| invalid(&track.path().to_string(), &e.to_string()))?;
    // (An object given as is may hold `undefined`, which JSON cannot.)
    if delivery.data.0.is_undefined() {
        return Err(invalid("data", "missing field `data`"));
    }
    if delivery.uuid.is_empty() {
        return Err(invalid(
            "uuid",
            "must not be empty (it identifies the event)",
        ));
    }
    match operation(&delivery.operation) {
        Operation::KnownShape => {
            check_data_at(
                &delivery.operation,
                serde_wasm_bindgen::Deserializer::from(delivery.data.0),
            )
            .map_err(|(path, message)| invalid(&path, &message))?;
            Ok(value)
        }
        Operation::UnknownShape => Ok(value),
        Operation::UnknownType => {
            // Own members defined one by one (`Object.assign` would make a `__proto__` member
            // the copy's prototype).
            let copy = Object::from_entries(&Object::entries(value.unchecked_ref()))
                .map_err(|_| invalid(".", "the envelope's members cannot be read"))?;
            let copy: &JsValue = copy.as_ref();
            let _ = Reflect::set(copy, &"operation".into(), &JsValue::NULL);
            let _ = Reflect::set(
                copy,
                &"rawOperation".into(),
                &delivery.operation.as_str().into(),
            );
            Ok(copy.clone())
        }
    }
}
