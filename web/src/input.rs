//! A caller's arguments read into the model's types (serde-wasm-bindgen), and their refusals in
//! the caller's words: the path of the refused field (`invalid options.paging.take: ...`), found
//! after serde's refusal, and keys the type does not have.

use super::js::{get, is_nullish};
use crate::api::status::{in_js_terms, serde_message};
use crate::error::Error;
use crate::model::{fields_of, Input};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Reads a caller's argument into `T` with serde-wasm-bindgen; an error names the field path
/// under `name` (`invalid options.paging.take: ...`, `invalid input.file: is required`). Keys
/// that `T` does not have are refused too (`invalid options.retries: is not a known option`).
pub fn input<T: Input>(name: &str, value: JsValue) -> Result<T, Error> {
    let read: T = match read(&value) {
        Ok(read) => read,
        Err(message) => {
            let path = refused_at(&value, fields_of::<T>(), T::nested, &message, &|v| {
                read::<T>(v).err()
            });
            return Err(input_error(name, &path, &message));
        }
    };
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

/// `T` read from a JavaScript value by serde-wasm-bindgen, or the text of serde's refusal.
fn read<T: Input>(value: &JsValue) -> Result<T, String> {
    T::deserialize(serde_wasm_bindgen::Deserializer::from(value.clone()))
        .map_err(|e| serde_message(&e))
}

/// A step of the path to a value inside an input: a key, or an index in an array (with the
/// array, whose elements before it are read first).
enum Step {
    Key(String),
    Index(u32, js_sys::Array),
}

/// The value `leaf` at `path` inside objects that hold nothing else and arrays that hold only
/// the elements before it (serde reads an array's elements in order, and a struct's fields from
/// an array by their position).
fn alone_at(path: &[Step], leaf: JsValue) -> JsValue {
    path.iter().rev().fold(leaf, |inner, step| match step {
        Step::Key(key) => {
            let object = js_sys::Object::new();
            let _ = js_sys::Reflect::set(&object, &JsValue::from_str(key), &inner);
            object.into()
        }
        Step::Index(index, array) => {
            let before = array.slice(0, *index);
            before.push(&inner);
            before.into()
        }
    })
}

/// Where in `given` serde refused it with `message` (`paging.take`, `fields[1]`, `.` for the
/// input itself), as serde_path_to_error would have tracked it: found after the refusal, without
/// a second, path-tracking decoder, by reading again (`refuses`: serde's own reading of the whole
/// input type) the parts of `given` one at a time, each alone at its place ([`alone_at`]); the one
/// refused with the same message is where, and its own parts are looked into the same way, unless
/// the same kind of container, empty, is refused alike (then it is refused as a whole), or, in an
/// object whose keys no struct declares, the part is refused whatever it holds (an enum's unknown
/// variant is the key of the object it is read from: then the object is where). A missing field is the object's that lacks it. `known` and `nested` give the declared order of the keys
/// (serde reads them in that order, so the first of two refused parts is the one it named).
#[inline(never)]
fn refused_at(
    given: &JsValue,
    known: &[&str],
    nested: fn(&str) -> Option<&'static [&'static str]>,
    message: &str,
    refuses: &dyn Fn(&JsValue) -> Option<String>,
) -> String {
    if let Some(field) = message
        .strip_prefix("missing field `")
        .and_then(|m| m.strip_suffix('`'))
    {
        return path_text(&lacking(given, known, nested, field));
    }
    let mut path: Vec<Step> = Vec::new();
    let mut here = given.clone();
    let mut keys: Option<&[&str]> = Some(known);
    loop {
        // Where a struct is read (its keys known), serde-wasm-bindgen reads any object by its
        // keys, an array too (`"sort" in []`: `Array.prototype.sort`); elsewhere an array is a
        // sequence, and a plain object a map of its own keys.
        let as_object = match keys {
            Some(_) => here.is_object(),
            None => is_plain_object(&here),
        };
        if !as_object && !js_sys::Array::is_array(&here) {
            break;
        }
        if refused_whole(&path, as_object, message, refuses) {
            break;
        }
        let parts = parts_of(&here, as_object, keys);
        let map = as_object && keys.is_none();
        let Some(part) = refused_part(&mut path, parts, map, message, refuses) else {
            break;
        };
        keys = match path.as_slice() {
            [Step::Key(key)] => nested(key),
            _ => None,
        };
        here = part;
    }
    path_text(&path)
}

/// Whether `object` is an object that has `key`.
fn has(object: &JsValue, key: &str) -> bool {
    object.is_object() && js_sys::Reflect::has(object, &JsValue::from_str(key)).unwrap_or(false)
}

/// Where a field serde found missing is lacking: the input itself (an empty path), or the first
/// of its nested inputs that declares the field and lacks it.
fn lacking(
    given: &JsValue,
    known: &[&str],
    nested: fn(&str) -> Option<&'static [&'static str]>,
    field: &str,
) -> Vec<Step> {
    let mut path = Vec::new();
    let the_input_lacks_it = known.contains(&field) && !has(given, field);
    if !the_input_lacks_it {
        let lacking = known.iter().find(|key| {
            let inner = get(given, key);
            nested(key).is_some_and(|keys| keys.contains(&field))
                && inner.is_object()
                && !has(&inner, field)
        });
        if let Some(key) = lacking {
            path.push(Step::Key((*key).to_owned()));
        }
    }
    path
}

/// What serde expected where it refused (`a string` in `..., expected a string`).
/// (A comparison of bytes: a substring search costs the module more than this function.)
fn expected(message: &str) -> Option<Vec<u8>> {
    const SEP: &[u8] = b", expected ";
    let bytes = message.as_bytes();
    let at = bytes.windows(SEP.len()).rposition(|w| w == SEP)?;
    bytes.get(at + SEP.len()..).map(<[u8]>::to_vec)
}

/// Whether the container at `path` is refused as a whole (a string expected, a `Store` that is
/// not one): the same kind of container, empty, is refused alike.
fn refused_whole(
    path: &[Step],
    as_object: bool,
    message: &str,
    refuses: &dyn Fn(&JsValue) -> Option<String>,
) -> bool {
    let empty: JsValue = if as_object {
        js_sys::Object::new().into()
    } else {
        js_sys::Array::new().into()
    };
    refuses(&alone_at(path, empty)).is_some_and(|alike| {
        alike == message || expected(&alike).is_some_and(|e| Some(e) == expected(message))
    })
}

/// The parts of `here`, in the order serde reads them: an array's elements, or an object's
/// entries (by `keys`, a struct's declared order, when known; else its own keys).
fn parts_of(here: &JsValue, as_object: bool, keys: Option<&[&str]>) -> Vec<(Step, JsValue)> {
    if !as_object {
        let array: &js_sys::Array = here.unchecked_ref();
        return (0..array.length())
            .map(|i| (Step::Index(i, array.clone()), array.get(i)))
            .collect();
    }
    let names: Vec<String> = match keys {
        Some(keys) => keys.iter().map(|key| (*key).to_owned()).collect(),
        None => js_sys::Object::keys(here.unchecked_ref::<js_sys::Object>())
            .iter()
            .filter_map(|key| key.as_string())
            .collect(),
    };
    names
        .into_iter()
        .filter(|key| has(here, key))
        .map(|key| {
            let value = get(here, &key);
            (Step::Key(key), value)
        })
        .collect()
}

/// The first of `parts` refused with `message` alone at its place, its step pushed onto `path`;
/// `None` when none is. In a `map` (an object whose keys no struct declares), a part refused
/// alike whatever it holds is not where (an enum's unknown variant is the key of the object it
/// is read from): then the object is, and `None`.
fn refused_part(
    path: &mut Vec<Step>,
    parts: Vec<(Step, JsValue)>,
    map: bool,
    message: &str,
    refuses: &dyn Fn(&JsValue) -> Option<String>,
) -> Option<JsValue> {
    for (step, part) in parts {
        path.push(step);
        if refuses(&alone_at(path, part.clone())).as_deref() == Some(message) {
            let other = if is_nullish(&part) {
                JsValue::TRUE
            } else {
                JsValue::NULL
            };
            if map && refuses(&alone_at(path, other)).as_deref() == Some(message) {
                path.pop();
                return None;
            }
            return Some(part);
        }
        path.pop();
    }
    None
}

/// A path as serde_path_to_error writes it: `paging.take`, `fields[1]`, `.` for none.
fn path_text(path: &[Step]) -> String {
    if path.is_empty() {
        return ".".to_owned();
    }
    let mut text = String::new();
    for step in path {
        match step {
            Step::Key(key) if text.is_empty() => text.push_str(key),
            Step::Key(key) => {
                text.push('.');
                text.push_str(key);
            }
            Step::Index(index, _) => text.push_str(&format!("[{index}]")),
        }
    }
    text
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
        // The path is written only for a key that is refused or looked into.
        let path_of = || format!("{path}.{key}");
        if !known.contains(&key.as_str()) {
            return Some(path_of());
        }
        if let Some(inner) = nested(&key) {
            if let Some(found) = unknown_key(&value, inner, |_| None, &path_of()) {
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
