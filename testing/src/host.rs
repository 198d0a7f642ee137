//! The emulator's host inside JavaScript: `Date.now` and `performance.now` for the clocks,
//! `setTimeout` for delays, `spawn_local` for deliveries, and the test's `deliver` function (if
//! any) for sending them. Futures of JavaScript promises are not `Send`; a wasm32 module has one
//! thread, so `SendWrapper` lets the router hold them.

use estatekit_emulator::delivery::{is_loopback, LOOPBACK_ONLY};
use estatekit_emulator::host::{BoxFuture, Host, Sent};
use js_sys::{Function, Object, Promise, Reflect};
use send_wrapper::SendWrapper;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = setTimeout)]
    fn set_timeout(callback: &Function, ms: f64) -> JsValue;
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
    #[wasm_bindgen(catch, js_namespace = crypto, js_name = getRandomValues)]
    fn get_random_values(buf: &mut [u8]) -> Result<JsValue, JsValue>;
}

/// The JavaScript host of one test service.
pub struct JsHost {
    deliver: SendWrapper<Option<Function>>,
    loopback_only: bool,
}

impl JsHost {
    /// A host that sends deliveries through `deliver`, or only records them; with
    /// `loopback_only`, a target that is not a loopback host is refused, as the native host does.
    pub fn new(deliver: Option<Function>, loopback_only: bool) -> JsHost {
        JsHost {
            deliver: SendWrapper::new(deliver),
            loopback_only,
        }
    }
}

fn sleep_ms(ms: u64) -> Promise {
    Promise::new(&mut |resolve, _| {
        set_timeout(&resolve, ms as f64);
    })
}

/// The text of a thrown value or rejection reason.
fn reason(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "the deliver function failed".into())
}

async fn send(deliver: Function, url: String, body: String) -> Sent {
    let init = Object::new();
    let headers = Object::new();
    let set = |o: &Object, k: &str, v: &str| Reflect::set(o, &k.into(), &v.into()).is_ok();
    let ok = set(&headers, "content-type", "application/json")
        && set(&headers, "user-agent", "estatekit-emulator")
        && set(&init, "method", "POST")
        && set(&init, "body", &body)
        && Reflect::set(&init, &"headers".into(), &headers).is_ok();
    if !ok {
        return Sent::Failed("could not build the request".into());
    }
    let returned = match deliver.call2(&JsValue::UNDEFINED, &url.into(), &init) {
        Ok(v) => v,
        Err(e) => return Sent::Failed(reason(&e)),
    };
    let settled = JsFuture::from(Promise::resolve(&returned)).await;
    match settled {
        Ok(v) => match Reflect::get(&v, &"status".into())
            .ok()
            .and_then(|s| s.as_f64())
        {
            Some(s) if (100.0..=599.0).contains(&s) => Sent::Status(s as u16),
            _ => Sent::Failed("the deliver function did not resolve to a Response".into()),
        },
        Err(e) => Sent::Failed(reason(&e)),
    }
}

impl Host for JsHost {
    fn unix_ms(&self) -> i64 {
        js_sys::Date::now() as i64
    }

    fn monotonic_ms(&self) -> u64 {
        performance_now() as u64
    }

    fn sleep(&self, ms: u64) -> BoxFuture<()> {
        let wait = SendWrapper::new(JsFuture::from(sleep_ms(ms)));
        Box::pin(async move {
            let _ = wait.await;
        })
    }

    fn spawn(&self, task: BoxFuture<()>) {
        wasm_bindgen_futures::spawn_local(task);
    }

    fn post_json(&self, url: String, body: String) -> BoxFuture<Sent> {
        if self.loopback_only && !is_loopback(&url) {
            return Box::pin(std::future::ready(Sent::Refused(LOOPBACK_ONLY.into())));
        }
        match self.deliver.as_ref() {
            Some(f) => Box::pin(SendWrapper::new(send(f.clone(), url, body))),
            None => Box::pin(std::future::ready(Sent::NotSent)),
        }
    }

    fn static_file(&self, _path: String) -> BoxFuture<Option<axum::response::Response>> {
        Box::pin(std::future::ready(None))
    }

    fn log(&self, _line: &str) {}

    fn random(&self, buf: &mut [u8]) -> Result<(), String> {
        get_random_values(buf).map(|_| ()).map_err(|e| {
            let why = e
                .dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
                .unwrap_or_else(|| "no Web Crypto in this runtime".into());
            format!("crypto.getRandomValues failed: {why}")
        })
    }
}
