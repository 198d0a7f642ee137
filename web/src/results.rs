//! How each operation's answer becomes its result: the checks the client's operations hand the
//! pipeline as function values. Each reads the answer's bytes with `crate::api`'s `check_*` and
//! gives the caller the browser's own `JSON.parse` value, as sent.

use super::answer::Answer;
use super::api_error::Failure;
use super::js;
use crate::api::check::{self, LIST_KEYS};
use crate::api::{documents, messages, webhooks};
use crate::error::Error;
use crate::model::webhooks::Webhook;
use wasm_bindgen::JsValue;

/// The parsed body of a 2xx answer; any other status is the call's failure.
fn ok_json(answer: &Answer) -> Result<JsValue, Failure> {
    if !answer.ok() {
        return Err(answer.status_failure());
    }
    answer.json()
}

/// The result of a deletion: `undefined` for a 2xx answer (its body is not read).
pub fn deleted(answer: &Answer) -> Result<JsValue, Failure> {
    if !answer.ok() {
        return Err(answer.status_failure());
    }
    Ok(JsValue::UNDEFINED)
}

/// The array of a list answer: the body itself, or the first of [`LIST_KEYS`] holding an
/// array; with where it was found (for error paths).
fn list_array(answer: &Answer, body: JsValue) -> Result<(&'static str, JsValue), Failure> {
    if js_sys::Array::is_array(&body) {
        return Ok(("", body));
    }
    if body.is_object() {
        for key in LIST_KEYS {
            let inner = js::get(&body, key);
            if js_sys::Array::is_array(&inner) {
                return Ok((key, inner));
            }
        }
    }
    let got = if body.is_null() {
        "null".into()
    } else if body.is_object() {
        "an object without one".into()
    } else {
        format!("a {}", body.js_typeof().as_string().unwrap_or_default())
    };
    Err(answer.fail(check::not_a_list(answer.operation, answer.status, &got)))
}

/// The checked webhook list of a 2xx answer, and the browser's own array.
pub fn webhooks_of(answer: &Answer) -> Result<(Vec<Webhook>, JsValue), Failure> {
    let (at, array) = list_array(answer, ok_json(answer)?)?;
    let list =
        webhooks::check_list(answer.status, at, &answer.bytes()).map_err(|e| answer.fail(e))?;
    Ok((list, array))
}

/// The checked webhook list of a 2xx answer.
pub fn webhook_list(answer: &Answer) -> Result<JsValue, Failure> {
    webhooks_of(answer).map(|(_, array)| array)
}

/// The checked document list of a 2xx answer.
pub fn document_list(answer: &Answer) -> Result<JsValue, Failure> {
    let (at, array) = list_array(answer, ok_json(answer)?)?;
    documents::check_list(answer.status, at, &answer.bytes()).map_err(|e| answer.fail(e))?;
    Ok(array)
}

/// The checked document record of a 2xx answer of `Operation::GetDocument` or
/// `Operation::UploadDocument`.
pub fn document_record(answer: &Answer) -> Result<JsValue, Failure> {
    let body = ok_json(answer)?;
    documents::check_record(answer.operation, answer.status, &answer.bytes())
        .map_err(|e| answer.fail(e))?;
    Ok(body)
}

/// The id of a registered webhook, from a 2xx answer's `Location` or body; when neither gives
/// it, the answer's status (a number: the caller looks the webhook up in the list).
pub fn registered(answer: &Answer) -> Result<JsValue, Failure> {
    if !answer.ok() {
        return Err(answer.status_failure());
    }
    let id = answer
        .header("location")
        .as_deref()
        .and_then(webhooks::id_from_location)
        .or_else(|| webhooks::id_in_answer(&answer.bytes()));
    Ok(id.map_or(JsValue::from(answer.status), |id| JsValue::from_str(&id)))
}

/// The checked `data.messages` of a GraphQL answer. GraphQL errors win, with HTTP 200 or not.
pub fn messages_of(answer: &Answer) -> Result<JsValue, Failure> {
    let parsed = answer.json();
    let checked = match &parsed {
        Ok(_) if answer.ok() => messages::check_answer(answer.status, &answer.bytes()).map(drop),
        Ok(_) => messages::check_errors(answer.status, &answer.bytes()),
        Err(_) => Ok(()),
    };
    match (checked, parsed) {
        (Err(error @ Error::Graphql { .. }), Ok(value)) => {
            let data = js::get(&value, "data");
            let errors = answer.for_error(js::get(&value, "errors"));
            let mut failure = answer.fail(error).with_details(Some(errors));
            if !js::is_nullish(&data) {
                failure.call.data = answer.for_error(data);
            }
            Err(failure)
        }
        (Err(error), _) => Err(answer.fail(error)),
        (Ok(()), _) if !answer.ok() => Err(answer.status_failure()),
        (Ok(()), parsed) => Ok(js::get(&js::get(&parsed?, "data"), "messages")),
    }
}
