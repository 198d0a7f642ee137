//! The stack floor of `make bench` (issue 63, bench/README.md "The stack floor"): the
//! listWebhooks request sent and read the way the client sends and reads it, by the stack's
//! crates alone, with none of the client's own logic (options, token, events, retries, rate
//! limit, error model):
//!
//! 1. js/request.js's `sendRequest` (the client's one crossing per request, imported through
//!    wasm-bindgen as web/src/transport.rs imports it) with the arguments the client gives it for
//!    a listWebhooks call with the default options, awaited as a `wasm_bindgen_futures::JsFuture`;
//! 2. the answer's head (status, headers) read through gloo-net, from the `web_sys::Response`;
//! 3. the body parsed by the browser's `JSON.parse` (the value returned, as sent), and its bytes
//!    copied into WebAssembly memory and checked by serde_json into estatekit-core's
//!    `Vec<Webhook>`, the type the client checks this answer into;
//! 4. all of it returned through `wasm_bindgen_futures::future_to_promise`.
//!
//! Never shipped: bench/run.mjs serves it to the bench page only. wasm32 only; natively the crate
//! is empty.

#[cfg(target_arch = "wasm32")]
mod floor {
    use estatekit_core::model::webhooks::Webhook;
    use js_sys::{JsString, Promise};
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::{future_to_promise, JsFuture};

    /// The client's default timeout of a call (web/src/client.rs): `sendRequest` gets it, so
    /// that it arms the same timer and `AbortController` as for the client's call.
    const TIMEOUT_MS: u32 = 30_000;

    #[wasm_bindgen(module = "/../../js/request.js")]
    extern "C" {
        /// What `sendRequest` resolves to (js/request.js's `Sent`).
        type Sent;

        /// js/request.js's `sendRequest`, declared as web/src/transport.rs declares it.
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
            signal: Option<&web_sys::AbortSignal>,
            timeout_ms: u32,
        ) -> Promise;

        #[wasm_bindgen(method, getter)]
        fn response(this: &Sent) -> Option<web_sys::Response>;
        #[wasm_bindgen(method, getter)]
        fn bytes(this: &Sent) -> JsValue;
        #[wasm_bindgen(method, getter)]
        fn text(this: &Sent) -> Option<JsString>;
    }

    #[wasm_bindgen]
    extern "C" {
        /// `JSON.parse` of a JavaScript string, as web/src/js.rs binds it.
        #[wasm_bindgen(js_namespace = JSON, js_name = parse, catch)]
        fn parse_json(text: &JsString) -> Result<JsValue, JsValue>;
    }

    /// The list's URL and its `Authorization` header, held as the client holds its base URL and
    /// token's header.
    #[wasm_bindgen]
    pub struct Floor {
        url: String,
        authorization: JsValue,
    }

    #[wasm_bindgen]
    impl Floor {
        /// The floor of `GET {base}/api/external-integrations/webhooks` with `token`.
        #[wasm_bindgen(constructor)]
        pub fn new(base: &str, token: &str) -> Floor {
            Floor {
                url: format!(
                    "{}/api/external-integrations/webhooks",
                    base.trim_end_matches('/')
                ),
                authorization: JsValue::from_str(&format!("Bearer {token}")),
            }
        }

        /// One listWebhooks request: resolves to the browser's parsed array once serde_json
        /// accepted it as `Webhook[]`; rejects with an `Error` otherwise.
        #[wasm_bindgen(js_name = listWebhooks)]
        pub fn list_webhooks(&self) -> Promise {
            let (url, authorization) = (self.url.clone(), self.authorization.clone());
            future_to_promise(async move { list(&url, &authorization).await })
        }
    }

    fn fail(message: &str) -> JsValue {
        js_sys::Error::new(message).into()
    }

    async fn list(url: &str, authorization: &JsValue) -> Result<JsValue, JsValue> {
        let sent = send_request(
            None,
            None,
            0,
            "GET",
            url,
            authorization,
            false,
            &JsValue::UNDEFINED,
            None,
            TIMEOUT_MS,
        );
        let sent: Sent = JsFuture::from(sent).await?.unchecked_into();
        let raw = sent.response().ok_or_else(|| fail("no answer"))?;
        let response = gloo_net::http::Response::from(raw);
        let (status, _headers) = (response.status(), response.headers());
        if !(200..300).contains(&status) {
            return Err(fail("the answer's status is not 2xx"));
        }
        let text = sent.text().ok_or_else(|| fail("the answer is not UTF-8"))?;
        let array = parse_json(&text)?;
        if !js_sys::Array::is_array(&array) {
            return Err(fail("the answer is not an array"));
        }
        let bytes = js_sys::Uint8Array::new(&sent.bytes()).to_vec();
        serde_json::from_slice::<Vec<Webhook>>(&bytes)
            .map_err(|_| fail("the answer is not a list of webhooks"))?;
        Ok(array)
    }
}
