//! The browser's fast path for response checks: the Rust shape (`crate::api::schema::Ty`) is
//! turned once into a plain JavaScript object and checked by `js/check.js` in one call.

use crate::api::schema::{Mismatch, Step, Ty};
use js_sys::{Array, Object};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/js/check.js")]
extern "C" {
    #[wasm_bindgen(js_name = checkShape)]
    fn check_shape(value: &JsValue, shape: &JsValue) -> JsValue;
}

thread_local! {
    /// JavaScript shapes already built, by the address of their static Rust shape.
    static SHAPES: RefCell<Vec<(usize, JsValue)>> = const { RefCell::new(Vec::new()) };
}

fn build(ty: &Ty) -> JsValue {
    match ty {
        Ty::String => "s".into(),
        Ty::Bool => "b".into(),
        Ty::Number => "n".into(),
        Ty::Object => "o".into(),
        Ty::List {
            item,
            nullable_items,
        } => {
            let o = Object::new();
            super::js::set(&o, "l", &build(item));
            super::js::set(&o, "n", &JsValue::from_bool(*nullable_items));
            o.into()
        }
        Ty::Record(fields) => {
            let list = Array::new();
            for f in fields.iter() {
                list.push(&Array::of3(
                    &f.name.into(),
                    &build(&f.ty),
                    &JsValue::from_bool(f.required),
                ));
            }
            let o = Object::new();
            super::js::set(&o, "r", &list);
            o.into()
        }
    }
}

fn shape_of(ty: &'static Ty) -> JsValue {
    let address = ty as *const Ty as usize;
    SHAPES.with(|shapes| {
        let mut shapes = shapes.borrow_mut();
        if let Some((_, s)) = shapes.iter().find(|(a, _)| *a == address) {
            return s.clone();
        }
        let s = build(ty);
        shapes.push((address, s.clone()));
        s
    })
}

/// Checks `value` against `ty` in JavaScript.
pub fn check(value: &JsValue, ty: &'static Ty) -> Result<(), Mismatch> {
    let verdict = check_shape(value, &shape_of(ty));
    if verdict.is_null() || verdict.is_undefined() {
        return Ok(());
    }
    let path = super::js::get(&verdict, "0");
    let reason = super::js::get(&verdict, "1")
        .as_string()
        .unwrap_or_else(|| "does not match".into());
    let steps = if js_sys::Array::is_array(&path) {
        path.unchecked_ref::<Array>()
            .iter()
            .map(|s| match (s.as_f64(), s.as_string()) {
                (Some(i), _) => Step::Index(i as usize),
                (None, Some(k)) => Step::Key(k.into()),
                (None, None) => Step::Key("?".into()),
            })
            .collect()
    } else {
        Vec::new()
    };
    Err(Mismatch {
        path: steps,
        reason,
    })
}
