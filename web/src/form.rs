//! Uploads from a DOM emulation in Node (the `dom-emulation` feature, built into the module of
//! the package's server entry only: browsers have no DOM emulation).
//!
//! Test environments such as vitest's jsdom replace the global `FormData`, `Blob` and `File` with
//! their own, which Node's `fetch` cannot send (vitest's adapter for jsdom's `FormData` reads a
//! private field that jsdom 28 no longer has, and sends the text `undefined` instead of the file).
//! There an upload is built with the platform's own classes, which its `Response` hands out, and
//! the file's bytes are copied into a platform `Blob`, read by the file's own `arrayBuffer()` or,
//! where its class has none (jsdom before 28), by the emulation's `FileReader`. A file that
//! neither can read is refused (`invalid_input` naming `input.file`), never sent as something
//! else.

use super::js;
use crate::error::Error;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, FormData, Response};

/// The result of a JavaScript promise made by `make`, or its error.
async fn settled(make: Result<js_sys::Promise, JsValue>) -> Result<JsValue, JsValue> {
    JsFuture::from(make?).await
}

/// The bytes of `file` (an `ArrayBuffer`), read by the global `FileReader`.
async fn read_with_file_reader(file: &Blob) -> Result<JsValue, JsValue> {
    let class: js_sys::Function = js::get(&js_sys::global(), "FileReader").dyn_into()?;
    let reader = js_sys::Reflect::construct(&class, &js_sys::Array::new())?;
    let method = |name: &str| js::get(&reader, name).dyn_into::<js_sys::Function>();
    let listen = method("addEventListener")?;
    let mut listened = Ok(JsValue::UNDEFINED);
    let done = js_sys::Promise::new(&mut |resolve, reject| {
        listened = listen
            .call2(&reader, &"load".into(), &resolve)
            .and_then(|_| listen.call2(&reader, &"error".into(), &reject));
    });
    listened?;
    method("readAsArrayBuffer")?.call1(&reader, file)?;
    JsFuture::from(done).await?;
    Ok(js::get(&reader, "result"))
}

/// An empty `FormData` of the platform's class and a platform copy of `file`, when the global
/// `FormData` is not the platform's (a DOM emulation); `None` where it is.
pub async fn platform_form(file: &Blob) -> Result<Option<(FormData, JsValue)>, Error> {
    let unreadable = |_| {
        Error::invalid(
            "input.file",
            "could not be read to be sent (a DOM emulation's file that neither its arrayBuffer() nor a FileReader reads)",
        )
    };
    let params = web_sys::UrlSearchParams::new().map_err(unreadable)?;
    let form = settled(
        Response::new_with_opt_url_search_params(Some(&params)).and_then(|r| r.form_data()),
    )
    .await
    .map_err(unreadable)?;
    let form_class = js::get(&form, "constructor");
    if form_class == js::get(&js_sys::global(), "FormData") {
        return Ok(None);
    }
    let bytes = match js::get(file, "arrayBuffer").dyn_into::<js_sys::Function>() {
        // (An emulation's promise may be of its own realm: adopted, not cast.)
        Ok(read) => settled(read.call0(file).map(|p| js_sys::Promise::resolve(&p))).await,
        Err(_) => read_with_file_reader(file).await,
    }
    .map_err(unreadable)?;
    let blob = settled(Response::new().and_then(|r| r.blob()))
        .await
        .map_err(unreadable)?;
    let options = js_sys::Object::new();
    js_sys::Reflect::set(&options, &"type".into(), &file.type_().into()).map_err(unreadable)?;
    let new = |class: JsValue, args: &js_sys::Array| {
        js_sys::Reflect::construct(class.unchecked_ref::<js_sys::Function>(), args)
    };
    let parts = js_sys::Array::of2(&js_sys::Array::of1(&bytes), &options);
    let copy = new(js::get(&blob, "constructor"), &parts).map_err(unreadable)?;
    let form = new(form_class, &js_sys::Array::new()).map_err(unreadable)?;
    Ok(Some((form.unchecked_into(), copy)))
}
