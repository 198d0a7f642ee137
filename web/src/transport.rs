//! Runs one described request: in one crossing into JavaScript (js/request.js's `sendRequest`
//! builds the `Request`, calls the global `fetch` or the caller's `fetch` option, through
//! estatekit/otel's hook when there is one, aborts on timeout or on the caller's `AbortSignal`,
//! never follows redirects and reads the whole answer), gloo-net reading the answer's status and
//! headers; or, for upload progress, which fetch cannot report, with `XMLHttpRequest`.
//!
//! The body of an answer stays a JavaScript string: the browser decodes it (UTF-8, fatal) and
//! `JSON.parse` reads it, as sent; it is never copied into WebAssembly memory (only short
//! excerpts are, for error messages, where the token is hidden: see `answer`).

use super::answer::{Answer, Headers};
use super::api_error::Failure;
use super::js;
use crate::api::{FormValue, HttpRequest, JsonBody, RequestBody};
use crate::error::{limit, redact, Error, Resend, UNSENT_CODES};
use crate::model::documents::UploadProgress;
use js_sys::JsString;
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    AbortController, AbortSignal, Blob, FormData, ProgressEvent, XmlHttpRequest,
    XmlHttpRequestResponseType,
};

/// A request ready to go: its description plus what only the browser holds.
#[derive(Clone, Copy)]
pub struct Outgoing<'a> {
    /// The described request.
    pub request: &'a HttpRequest,
    /// The file part of a multipart upload and its file name.
    pub file: Option<(&'a Blob, &'a str)>,
    /// The caller's abort signal.
    pub signal: Option<&'a AbortSignal>,
    /// Timeout of this attempt in milliseconds (what is left of the call's); 0 = none.
    pub timeout_ms: u32,
    /// Upload progress callback; when set, the request goes through `XMLHttpRequest` (unless
    /// `fetch` is set).
    pub progress: Option<&'a js_sys::Function>,
    /// The client's `fetch` option, called instead of the global `fetch`.
    pub fetch: Option<&'a js_sys::Function>,
    /// The client's hook around the `fetch` call (`estatekit/otel`, through the wrapper's
    /// undeclared `Symbol.for("estatekit.instrument")`): when set, the request is sent by
    /// `send(fetch, url, init, callId)` (js/request.js), which must call `fetch(url, init)` at once
    /// and return what it returns, and may add headers to `init.headers` (what it throws is the request's failure, as `fetch`'s would be). The call's
    /// `request` event is told before, in the same turn, except for an upload in the server build
    /// (a DOM emulation's file is copied first), hence `callId`. Uploads sent by XMLHttpRequest
    /// (browsers, with `onProgress`) do not reach it.
    pub send: Option<&'a js_sys::Function>,
    /// The call's id (`callId` of its events), given to `send`.
    pub call_id: u32,
}

/// Owns the `AbortController` of one `XMLHttpRequest`, its timer and its link to the caller's
/// signal; dropping it clears the timer and the listener, so nothing outlives the call. (A request
/// sent by `fetch` has the same, made by js/request.js.)
struct AbortGuard {
    controller: AbortController,
    timed_out: Rc<Cell<bool>>,
    timer: Option<(JsValue, Closure<dyn FnMut()>)>,
    caller: Option<(AbortSignal, Closure<dyn FnMut()>)>,
}

impl AbortGuard {
    fn new(signal: Option<&AbortSignal>, timeout_ms: u32) -> Result<AbortGuard, JsValue> {
        let controller = AbortController::new()?;
        let timed_out = Rc::new(Cell::new(false));
        let timer = if timeout_ms > 0 {
            let (c, flag) = (controller.clone(), timed_out.clone());
            let cb = Closure::<dyn FnMut()>::new(move || {
                flag.set(true);
                c.abort();
            });
            let ms = i32::try_from(timeout_ms).unwrap_or(i32::MAX);
            let id = js::set_timeout(cb.as_ref().unchecked_ref(), ms);
            Some((id, cb))
        } else {
            None
        };
        let caller = match signal {
            Some(s) => {
                // The caller's signal is linked, never given to fetch: whatever reason it
                // aborts with, fetch rejects with an ordinary AbortError.
                let c = controller.clone();
                let cb = Closure::<dyn FnMut()>::new(move || c.abort());
                s.add_event_listener_with_callback("abort", cb.as_ref().unchecked_ref())?;
                Some((s.clone(), cb))
            }
            None => None,
        };
        Ok(AbortGuard {
            controller,
            timed_out,
            timer,
            caller,
        })
    }

    /// Why the request stopped: `timeout` (its timer fired), `aborted` (the caller's signal),
    /// or none.
    fn stop(&self) -> &'static str {
        if self.timed_out.get() {
            "timeout"
        } else if self.controller.signal().aborted() {
            "aborted"
        } else {
            ""
        }
    }
}

impl Drop for AbortGuard {
    fn drop(&mut self) {
        if let Some((id, _)) = &self.timer {
            js::clear_timeout(id);
        }
        if let Some((signal, cb)) = &self.caller {
            let _ =
                signal.remove_event_listener_with_callback("abort", cb.as_ref().unchecked_ref());
        }
    }
}

/// A request that got no answer because of `err` (what was thrown or rejected): its message,
/// and the platform's reason when a `cause` under it gives one.
fn failed(err: JsValue) -> NoAnswer {
    NoAnswer::Failed(failure_text(&err), err)
}

/// The text of a failed request: its message, and the platform's reason when a `cause` under it
/// gives one (what a network error's message quotes).
pub(super) fn failure_text(err: &JsValue) -> String {
    match platform_reason(err) {
        Some(why) => limit(&format!("{}: {why}", describe(err)), 300),
        None => describe(err),
    }
}

/// The platform's reason for a failed request, found down `err`'s `cause` chain (at most four
/// deep): the deepest cause's `message`, or its `code` when it has no message. Node's fetch rejects with `TypeError: fetch
/// failed` whose cause says `connect ECONNREFUSED 127.0.0.1:59999` (code `ECONNREFUSED`), or
/// `getaddrinfo ENOTFOUND ...`, or a TLS error's code; a browser's `TypeError` has no cause.
fn platform_reason(err: &JsValue) -> Option<String> {
    let mut found = None;
    let mut at = js::get(err, "cause");
    for _ in 0..4 {
        if js::is_nullish(&at) {
            break;
        }
        // Its message (Node's name the code: `connect ECONNREFUSED ...`), else its code.
        found = js::get(&at, "message")
            .as_string()
            .or_else(|| at.as_string())
            .filter(|m| !m.is_empty())
            .or_else(|| js::get(&at, "code").as_string())
            .or(found);
        at = js::get(&at, "cause");
    }
    found
}

/// The platform's `code` of a failed request (`ECONNREFUSED`, ...): on `err` (node-fetch's
/// `FetchError`) or down its `cause` chain (undici's), at most five deep.
pub(super) fn platform_code(err: &JsValue) -> Option<String> {
    let mut at = err.clone();
    for _ in 0..5 {
        if let Some(code) = js::get(&at, "code").as_string() {
            return Some(code);
        }
        at = js::get(&at, "cause");
    }
    None
}

/// Whether `err` or a cause under it (at most five deep) has one of the platform's `codes`.
fn has_code(err: &JsValue, codes: &[&str]) -> bool {
    let mut at = err.clone();
    for _ in 0..5 {
        if js::get(&at, "code")
            .as_string()
            .is_some_and(|code| codes.contains(&code.as_str()))
        {
            return true;
        }
        at = js::get(&at, "cause");
    }
    false
}

/// The codes of a connection the other side reset or closed while the request was being
/// written (Node's, undici's).
const RESET_CODES: [&str; 3] = ["ECONNRESET", "EPIPE", "UND_ERR_SOCKET"];

/// What an upload whose connection was reset while it was sent says.
const RESET_UPLOAD: &str = "the service closed the connection before the whole upload was \
                            sent, as a server does to refuse a body (most often one over its size limit)";

/// A failure with nothing thrown underneath.
fn failed_with(reason: &str) -> NoAnswer {
    NoAnswer::Failed(reason.into(), JsValue::UNDEFINED)
}

/// The errors JavaScript throws for a mistake in a program, never for a failed request (a
/// failed request is a `TypeError` of the platform's `fetch`, a `DOMException`, node-fetch's
/// `FetchError`, Bun's own errors...).
const PROGRAM_ERRORS: [&str; 5] = [
    "RangeError",
    "ReferenceError",
    "SyntaxError",
    "EvalError",
    "URIError",
];

/// What the caller's `fetch` threw: a program error of its own, or a failed request.
fn caller_failed(err: JsValue) -> NoAnswer {
    let name = js::get(&err, "name").as_string().unwrap_or_default();
    if err.is_instance_of::<js_sys::Error>() && PROGRAM_ERRORS.contains(&name.as_str()) {
        NoAnswer::CallerBug(describe_named(&err), err)
    } else {
        failed(err)
    }
}

/// `Name: message` of an error (or its string form).
fn describe_named(err: &JsValue) -> String {
    match js::get(err, "name").as_string() {
        Some(name) => format!("{name}: {}", describe(err)),
        None => describe(err),
    }
}

/// The host (and port) of an absolute URL, for a message (never its credentials: a base URL
/// has none).
fn host_of(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or(rest);
    authority
        .rsplit_once('@')
        .map_or(authority, |(_, host)| host)
        .to_owned()
}

/// `cause`, unless its text quotes `token`: then an `Error` of that text with the token hidden.
fn without_token(cause: JsValue, token: &str) -> JsValue {
    let text = describe_named(&cause);
    if token.is_empty() || !text.contains(token) {
        return cause;
    }
    js_sys::Error::new(&redact(text, token)).into()
}

/// A short text for a JavaScript exception (its `message`, or its string form).
fn describe(err: &JsValue) -> String {
    let text = js::get(err, "message")
        .as_string()
        .or_else(|| err.as_string())
        .unwrap_or_else(|| "the request failed".into());
    limit(&text, 200)
}

/// A JSON document as text, serialised by serde-wasm-bindgen and the browser's `JSON`.
fn json_text(body: &JsonBody) -> Result<JsValue, JsValue> {
    let value = serde_wasm_bindgen::to_value(body)?;
    Ok(js_sys::JSON::stringify(&value)?.into())
}

/// An upload's `FormData`, empty, and its file part, when they are not the global `FormData` and
/// the file itself (see `form`).
type PlatformForm = Option<(FormData, JsValue)>;

/// The request body as a JavaScript value, and whether it is JSON.
fn body_of(out: &Outgoing<'_>, platform: PlatformForm) -> Result<(Option<JsValue>, bool), JsValue> {
    Ok(match &out.request.body {
        RequestBody::None => (None, false),
        RequestBody::Json(body) => (Some(json_text(body)?), true),
        RequestBody::Form(fields) => {
            let (form, part) = match platform {
                Some((form, part)) => (form, Some(part)),
                None => (FormData::new()?, None),
            };
            for (name, value) in fields {
                match value {
                    FormValue::Text(text) => form.append_with_str(name, text)?,
                    FormValue::Json(body) => form
                        .append_with_str(name, &json_text(body)?.as_string().unwrap_or_default())?,
                }
            }
            if let Some((blob, file_name)) = out.file {
                let part = part.as_ref().map_or(blob, |p| p.unchecked_ref());
                form.append_with_blob_and_filename("file", part, file_name)?;
            }
            (Some(form.into()), false)
        }
    })
}

/// What came back, before it becomes an [`Answer`].
struct Reply {
    status: u16,
    headers: Headers,
    body: Option<JsString>,
    /// The body's `ArrayBuffer`.
    bytes: JsValue,
}

/// Why a request got no HTTP answer.
enum NoAnswer {
    /// The browser refused or failed the request: its message, and what it threw or rejected
    /// with (`undefined` when nothing was thrown).
    Failed(String, JsValue),
    /// The caller's `fetch` option threw an error of the program itself (`RangeError`, ...): its
    /// text, and the error.
    CallerBug(String, JsValue),
    /// The answer was a redirect, which is never followed.
    Redirected,
    /// The `fetch` option resolved to something that is not a `Response`.
    NotResponse,
}

#[wasm_bindgen(module = "/../js/request.js")]
extern "C" {
    /// What [`send_request`] resolves to: an answer, or why there was none.
    type Sent;

    /// Sends one request and reads its whole answer, in one crossing (js/request.js): builds
    /// the `Request`, calls the `fetch` option or the global `fetch` (through the `send` hook
    /// when there is one), wires the timeout and the caller's signal when there are, reads the
    /// body; never rejects. The optional values are `undefined` when absent.
    #[wasm_bindgen(js_name = sendRequest)]
    #[allow(clippy::too_many_arguments)]
    fn send_request(
        fetch: Option<&js_sys::Function>,
        hook: Option<&js_sys::Function>,
        call_id: u32,
        method: &str,
        url: &str,
        authorization: &JsValue,
        json: bool,
        body: &JsValue,
        signal: Option<&AbortSignal>,
        timeout_ms: u32,
    ) -> js_sys::Promise;

    #[wasm_bindgen(method, getter)]
    fn response(this: &Sent) -> Option<web_sys::Response>;
    #[wasm_bindgen(method, getter)]
    fn redirected(this: &Sent) -> bool;
    #[wasm_bindgen(method, getter)]
    fn bytes(this: &Sent) -> JsValue;
    #[wasm_bindgen(method, getter)]
    fn text(this: &Sent) -> Option<JsString>;
    #[wasm_bindgen(method, getter)]
    fn failure(this: &Sent) -> JsValue;
    #[wasm_bindgen(method, getter)]
    fn stop(this: &Sent) -> String;
    #[wasm_bindgen(method, getter, js_name = notResponse)]
    fn not_response(this: &Sent) -> bool;
}

/// What a request sent by `fetch` came to, as the module reads it.
enum Fetched {
    /// An answer.
    Reply(Reply),
    /// No answer: the stop (`timeout`, `aborted`, or none) and why.
    Stopped(&'static str, NoAnswer),
}

/// Sends the request with `fetch` (the caller's option or the global one, through the `send`
/// hook when there is one) in one crossing ([`send_request`]); gloo-net reads the answer's
/// status and headers.
async fn via_fetch(authorization: &JsValue, out: &Outgoing<'_>, platform: PlatformForm) -> Fetched {
    let (body, json) = match body_of(out, platform) {
        Ok(body) => body,
        Err(e) => return Fetched::Stopped("", failed(e)),
    };
    let sent = send_request(
        out.fetch,
        out.send,
        out.call_id,
        out.request.method.as_str(),
        &out.request.url,
        authorization,
        json,
        body.as_ref().unwrap_or(&JsValue::UNDEFINED),
        out.signal,
        out.timeout_ms,
    );
    let sent: Sent = match JsFuture::from(sent).await {
        Ok(sent) => sent.unchecked_into(),
        Err(e) => return Fetched::Stopped("", failed(e)),
    };
    if sent.not_response() {
        return Fetched::Stopped("", NoAnswer::NotResponse);
    }
    if sent.redirected() {
        return Fetched::Stopped("", NoAnswer::Redirected);
    }
    let Some(raw) = sent.response() else {
        let stop = match sent.stop().as_str() {
            "timeout" => "timeout",
            "aborted" => "aborted",
            _ => "",
        };
        let failure = sent.failure();
        let no_answer = match (out.fetch, failure.is_undefined()) {
            (_, true) => failed_with("aborted"),
            (Some(_), false) => caller_failed(failure),
            (None, false) => failed(failure),
        };
        return Fetched::Stopped(stop, no_answer);
    };
    let response = gloo_net::http::Response::from(raw);
    Fetched::Reply(Reply {
        status: response.status(),
        headers: Headers::Fetch(response.headers()),
        body: sent.text(),
        bytes: sent.bytes(),
    })
}

/// Sends with `XMLHttpRequest`, the only browser API that reports upload progress. XHR
/// follows redirects itself (browsers drop `Authorization` when one leaves the origin); an
/// answer from another origin is refused like any redirect.
async fn via_xhr(
    token: &str,
    out: &Outgoing<'_>,
    origin: &str,
    on_progress: &js_sys::Function,
) -> Fetched {
    let guard = match AbortGuard::new(out.signal, out.timeout_ms) {
        Ok(guard) => guard,
        Err(e) => return Fetched::Stopped("", failed(e)),
    };
    match xhr_sent(token, out, origin, &guard.controller.signal(), on_progress).await {
        Ok(reply) => Fetched::Reply(reply),
        Err(no_answer) => Fetched::Stopped(guard.stop(), no_answer),
    }
}

/// [`via_xhr`]'s request, stopped by `signal`.
async fn xhr_sent(
    token: &str,
    out: &Outgoing<'_>,
    origin: &str,
    signal: &AbortSignal,
    on_progress: &js_sys::Function,
) -> Result<Reply, NoAnswer> {
    let xhr = XmlHttpRequest::new().map_err(failed)?;
    xhr.open_with_async(out.request.method.as_str(), &out.request.url, true)
        .map_err(failed)?;
    xhr.set_request_header("Authorization", &format!("Bearer {token}"))
        .map_err(failed)?;
    let (body, json) = body_of(out, None).map_err(failed)?;
    if json {
        xhr.set_request_header("Content-Type", "application/json")
            .map_err(failed)?;
    }
    xhr.set_response_type(XmlHttpRequestResponseType::Arraybuffer);

    let mut settle: Option<(js_sys::Function, js_sys::Function)> = None;
    let done = js_sys::Promise::new(&mut |resolve, reject| settle = Some((resolve, reject)));
    let (resolve, reject) = settle.ok_or_else(|| failed_with("promise executor not run"))?;
    let on_load = Closure::<dyn FnMut()>::new(move || {
        let _ = resolve.call0(&JsValue::NULL);
    });
    let on_fail = Closure::<dyn FnMut()>::new(move || {
        let _ = reject.call1(&JsValue::NULL, &JsValue::from_str("the upload failed"));
    });
    let last = Rc::new(Cell::new((0.0f64, 0.0f64)));
    let (seen, report) = (last.clone(), on_progress.clone());
    let on_upload_progress = Closure::<dyn FnMut(ProgressEvent)>::new(move |e: ProgressEvent| {
        seen.set((e.loaded(), e.total()));
        js::notify(&report, &progress(e.loaded(), e.total()));
    });
    let target = xhr.clone();
    let on_abort = Closure::<dyn FnMut()>::new(move || {
        let _ = target.abort();
    });

    xhr.set_onload(Some(on_load.as_ref().unchecked_ref()));
    xhr.set_onerror(Some(on_fail.as_ref().unchecked_ref()));
    xhr.set_onabort(Some(on_fail.as_ref().unchecked_ref()));
    let upload = xhr.upload().map_err(failed)?;
    upload.set_onprogress(Some(on_upload_progress.as_ref().unchecked_ref()));
    signal
        .add_event_listener_with_callback("abort", on_abort.as_ref().unchecked_ref())
        .map_err(failed)?;

    let sent = match &body {
        Some(b) if b.is_string() => xhr.send_with_opt_str(b.as_string().as_deref()),
        Some(b) => xhr.send_with_opt_form_data(b.dyn_ref::<FormData>()),
        None => xhr.send(),
    };
    let outcome = match sent {
        Ok(()) => JsFuture::from(done).await.map(|_| ()),
        Err(e) => Err(e),
    };
    let _ = signal.remove_event_listener_with_callback("abort", on_abort.as_ref().unchecked_ref());
    xhr.set_onload(None);
    xhr.set_onerror(None);
    xhr.set_onabort(None);
    upload.set_onprogress(None);
    outcome.map_err(failed)?;
    let status = xhr.status().map_err(failed)?;

    // End with loaded === total when the service took the upload (a 2xx): it read it whole.
    let (loaded, total) = last.get();
    if (200..300).contains(&status) && (total <= 0.0 || loaded < total) {
        let size = if total > 0.0 {
            total
        } else {
            out.file.map_or(0.0, |(blob, _)| blob.size())
        };
        js::notify(on_progress, &progress(size, size));
    }
    let final_url = xhr.response_url();
    if !final_url.is_empty() && !same_origin(&final_url, origin) {
        return Err(NoAnswer::Redirected);
    }
    let buffer = xhr.response().map_err(failed)?;
    Ok(Reply {
        status,
        headers: Headers::Xhr(xhr),
        body: js::utf8_text(&buffer),
        bytes: buffer,
    })
}

/// Whether `url` is on `origin` (`scheme://host[:port]`, as the base URL normalised it).
fn same_origin(url: &str, origin: &str) -> bool {
    url.strip_prefix(origin)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(['/', '?', '#']))
}

/// `{ loaded, total }` for `onProgress`.
fn progress(loaded: f64, total: f64) -> JsValue {
    js::to_js(&UploadProgress { loaded, total })
}

/// Whether a request carries `token` as its bearer token: always, but for the token endpoint's
/// grants (`estatekit/auth`), which are sent with an empty one.
fn bearer(token: &str) -> bool {
    cfg!(not(feature = "auth")) || !token.is_empty()
}

/// Sends the request once and reads the whole answer. `origin` is the base URL's, the only
/// one an answer may come from; `authorization` the `Authorization` header's value
/// ([`authorization`]), `undefined` for none.
pub async fn send(
    token: Rc<str>,
    authorization: &JsValue,
    out: &Outgoing<'_>,
    origin: &str,
) -> Result<Answer, Failure> {
    let operation = out.request.operation();
    #[cfg(feature = "auth")]
    let sent_at = js::now_ms();
    if out.signal.is_some_and(AbortSignal::aborted) {
        return Err(Error::Aborted { operation }.into());
    }
    #[cfg(feature = "dom-emulation")]
    let platform = match out.file {
        Some((blob, _)) => super::form::platform_form(blob)
            .await
            .map_err(|e| Failure::from(e).after(1))?,
        None => None,
    };
    #[cfg(not(feature = "dom-emulation"))]
    let platform: PlatformForm = None;
    // With the `fetch` option, or where there is no XMLHttpRequest (Node, workers of some
    // runtimes), progress is reported once, at the end. A DOM emulation's XMLHttpRequest sends
    // its own FormData only.
    let xhr_available = || {
        out.fetch.is_none()
            && platform.is_none()
            && !js::get(&js_sys::global(), "XMLHttpRequest").is_undefined()
    };
    let fetched = match out.progress {
        Some(on_progress) if xhr_available() => via_xhr(&token, out, origin, on_progress).await,
        Some(on_progress) => {
            let result = via_fetch(authorization, out, platform).await;
            // Reported whole only when the service took it (a 2xx): an upload that failed, was
            // refused or aborted reports no byte that may not have been sent.
            if matches!(&result, Fetched::Reply(reply) if (200..300).contains(&reply.status)) {
                let size = out.file.map_or(0.0, |(blob, _)| blob.size());
                js::notify(on_progress, &progress(size, size));
            }
            result
        }
        None => via_fetch(authorization, out, platform).await,
    };
    match fetched {
        Fetched::Reply(reply) => Ok(Answer {
            operation,
            status: reply.status,
            headers: reply.headers,
            body: reply.body,
            bytes: reply.bytes,
            token,
            attempts: 1,
            #[cfg(feature = "auth")]
            sent_at,
        }),
        Fetched::Stopped(stop, no_answer) => Err(unanswered(stop, no_answer, out, &token)),
    }
}

/// The failure of a request that got no answer: `stop` (`timeout`, `aborted`, or none) and why.
/// No token is in it: a `fetch` option could put the token in what it throws, so the message
/// hides it, and a cause that quotes it is replaced by an `Error` of the hidden text.
fn unanswered(stop: &'static str, no_answer: NoAnswer, out: &Outgoing<'_>, token: &str) -> Failure {
    let operation = out.request.operation();
    match no_answer {
        NoAnswer::Redirected => Failure::from(Error::Redirected { operation }).after(1),
        NoAnswer::NotResponse => Failure::from(Error::invalid(
            "options.fetch",
            "must return a Promise that resolves to a Response",
        ))
        .after(1),
        NoAnswer::Failed(reason, cause) => failed_to_send(stop, reason, cause, out, token),
        NoAnswer::CallerBug(reason, cause) => Failure::from(Error::CallerFetch {
            operation,
            reason: redact(reason, token),
        })
        .after(1)
        .caused_by(without_token(cause, token)),
    }
}

/// The failure of a request the platform failed (`reason`, `cause`: what it threw or rejected
/// with), timed out or aborted (`stop`): whether it was surely not sent (`unsent`), and the note
/// of an upload whose connection was reset.
fn failed_to_send(
    stop: &'static str,
    reason: String,
    cause: JsValue,
    out: &Outgoing<'_>,
    token: &str,
) -> Failure {
    let operation = out.request.operation();
    let unsent = stop.is_empty() && has_code(&cause, &UNSENT_CODES);
    let reset = stop.is_empty() && out.file.is_some() && has_code(&cause, &RESET_CODES);
    let cause = without_token(cause, token);
    let error = match stop {
        "timeout" => Error::Timeout {
            operation,
            timeout_ms: out.timeout_ms,
        },
        "aborted" => Error::Aborted { operation },
        _ => Error::Network {
            operation,
            host: host_of(&out.request.url),
            reason: redact(reason, token),
        },
    };
    let cause = match error {
        // An abort's cause is the reason the caller's signal gave.
        Error::Aborted { .. } => out.signal.map(AbortSignal::reason).unwrap_or(cause),
        _ => cause,
    };
    let mut failure = Failure::from(error).after(1);
    if unsent {
        failure.unsent = true;
        // Said where it matters: a request that is not idempotent, whose outcome is then known.
        if out.request.spec.resend != Resend::Idempotent {
            failure.note = Some("nothing was sent".into());
        }
    } else if reset {
        failure.note = Some(RESET_UPLOAD.into());
    }
    if cause.is_undefined() {
        failure
    } else {
        failure.caused_by(cause)
    }
}

/// The `Authorization` header's value for `token` (`Bearer ...`, a JavaScript string), or
/// `undefined` for a grant's request, which carries none: made once per token by the caller
/// ([`Bearer`]).
fn authorization(token: &str) -> JsValue {
    if bearer(token) {
        JsValue::from_str(&format!("Bearer {token}"))
    } else {
        JsValue::UNDEFINED
    }
}

/// The `Authorization` header of the last token a pipeline sent, kept while the token is the
/// same (the same `Rc`): made once per token, not per request.
#[derive(Default)]
pub struct Bearer(std::cell::RefCell<Option<(Rc<str>, JsValue)>>);

impl Bearer {
    /// The header's value for `token`.
    pub fn of(&self, token: &Rc<str>) -> JsValue {
        let mut last = self.0.borrow_mut();
        match &*last {
            Some((held, value)) if Rc::ptr_eq(held, token) => value.clone(),
            _ => {
                let value = authorization(token);
                *last = Some((token.clone(), value.clone()));
                value
            }
        }
    }
}

/// How a [`wait`] ended.
pub enum Waited {
    /// The awaited promise settled first (or, without a promise, the time passed).
    Done(Result<JsValue, JsValue>),
    /// The time limit passed first.
    Elapsed,
    /// The signal aborted first.
    Aborted,
}

/// Waits for `promise` (or, without one, for `ms` to pass), giving up after `ms` or as soon as
/// `signal` aborts. The timer and the listener are removed before returning.
pub async fn wait(
    promise: Option<&js_sys::Promise>,
    ms: Option<u32>,
    signal: Option<&AbortSignal>,
) -> Waited {
    if signal.is_some_and(AbortSignal::aborted) {
        return Waited::Aborted;
    }
    // 0 = still waiting, 1 = time passed, 2 = aborted.
    let ended = Rc::new(Cell::new(0u8));
    let mut settle: Option<js_sys::Function> = None;
    let stop = js_sys::Promise::new(&mut |resolve, _| settle = Some(resolve));
    let Some(resolve) = settle else {
        return Waited::Aborted;
    };
    let (flag, done) = (ended.clone(), resolve.clone());
    let on_time = Closure::<dyn FnMut()>::new(move || {
        flag.set(1);
        let _ = done.call0(&JsValue::NULL);
    });
    let flag = ended.clone();
    let on_abort = Closure::<dyn FnMut()>::new(move || {
        flag.set(2);
        let _ = resolve.call0(&JsValue::NULL);
    });
    let timer = ms.map(|ms| {
        js::set_timeout(
            on_time.as_ref().unchecked_ref(),
            i32::try_from(ms).unwrap_or(i32::MAX),
        )
    });
    if let Some(s) = signal {
        let _ = s.add_event_listener_with_callback("abort", on_abort.as_ref().unchecked_ref());
    }
    let raced = match promise {
        Some(p) => js_sys::Promise::race(&js_sys::Array::of2(p, &stop)),
        None => stop,
    };
    let result = JsFuture::from(raced).await;
    if let Some(t) = &timer {
        js::clear_timeout(t);
    }
    if let Some(s) = signal {
        let _ = s.remove_event_listener_with_callback("abort", on_abort.as_ref().unchecked_ref());
    }
    match ended.get() {
        2 => Waited::Aborted,
        1 if promise.is_some() => Waited::Elapsed,
        _ => Waited::Done(result),
    }
}

/// Waits `ms` milliseconds; `false` when `signal` aborted first.
pub async fn delay(ms: u32, signal: Option<&AbortSignal>) -> bool {
    !matches!(wait(None, Some(ms), signal).await, Waited::Aborted)
}
