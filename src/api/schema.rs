//! Response shapes as data, and one checker for all of them. A check verifies that the
//! documented fields have the documented JSON types (or are null/absent when optional);
//! unknown fields and unknown enum values pass, and the caller receives the value untouched.

use super::json_view::{JsonView, Kind};
use crate::text::{concat, index};
use std::borrow::Cow;

/// The expected type of a value.
#[derive(Debug)]
pub enum Ty {
    /// A string.
    String,
    /// A boolean.
    Bool,
    /// A number.
    Number,
    /// Any object (its members are not checked).
    Object,
    /// An array of `item`; `nullable_items` allows `null` elements.
    List {
        /// Type of the elements.
        item: &'static Ty,
        /// Whether elements may be null.
        nullable_items: bool,
    },
    /// An object with these documented members (others are allowed).
    Record(&'static [Field]),
}

/// A documented member of a record.
#[derive(Debug)]
pub struct Field {
    /// Member name.
    pub name: &'static str,
    /// Expected type.
    pub ty: Ty,
    /// Whether it must be present and non-null.
    pub required: bool,
}

impl Field {
    /// An optional, nullable member.
    pub const fn optional(name: &'static str, ty: Ty) -> Field {
        Field {
            name,
            ty,
            required: false,
        }
    }

    /// A member that must be present and non-null.
    pub const fn required(name: &'static str, ty: Ty) -> Field {
        Field {
            name,
            ty,
            required: true,
        }
    }
}

/// One step of a JSON path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// An object member.
    Key(Cow<'static, str>),
    /// An array element.
    Index(usize),
}

/// Why a value does not match, and where (steps from the checked value inwards).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// Path to the offending value.
    pub path: Vec<Step>,
    /// What is wrong.
    pub reason: String,
}

impl Mismatch {
    fn new(reason: String) -> Mismatch {
        Mismatch {
            path: Vec::new(),
            reason,
        }
    }

    fn within(mut self, step: Step) -> Mismatch {
        self.path.insert(0, step);
        self
    }

    /// `at data.messages[1].isRead: expected a boolean, got a string`, with `prefix` steps
    /// (where the checked value sits in the whole body) in front.
    pub fn describe(&self, prefix: &[Step]) -> String {
        let mut path = String::new();
        for step in prefix.iter().chain(self.path.iter()) {
            match step {
                Step::Key(k) => {
                    if !path.is_empty() {
                        path.push('.');
                    }
                    path.push_str(k);
                }
                Step::Index(i) => {
                    path.push_str(&index(*i));
                }
            }
        }
        if path.is_empty() {
            self.reason.clone()
        } else {
            concat(&["at ", &path, ": ", &self.reason])
        }
    }
}

fn expected(what: &str, got: Kind) -> Mismatch {
    Mismatch::new(concat(&["expected ", what, ", got ", got.described()]))
}

impl Step {
    /// A member step with a name known at compile time.
    pub const fn key(name: &'static str) -> Step {
        Step::Key(Cow::Borrowed(name))
    }
}

/// Checks `value` against `ty` (which must not be null at this level), the view's way
/// ([`JsonView::check_shape`]: a walk, or one call into JavaScript in the browser).
pub fn check<V: JsonView>(value: &V, ty: &'static Ty) -> Result<(), Mismatch> {
    value.check_shape(ty)
}

/// The reference implementation of [`check`]: walks the value member by member.
pub fn check_walk<V: JsonView>(value: &V, ty: &Ty) -> Result<(), Mismatch> {
    check_kind(value, value.kind(), ty)
}

/// [`check`] with the value's kind already known (each value's kind is read once: in the
/// browser every read is a call into JavaScript).
fn check_kind<V: JsonView>(value: &V, kind: Kind, ty: &Ty) -> Result<(), Mismatch> {
    match ty {
        Ty::String if kind == Kind::String => Ok(()),
        Ty::String => Err(expected("a string", kind)),
        Ty::Bool if kind == Kind::Bool => Ok(()),
        Ty::Bool => Err(expected("a boolean", kind)),
        Ty::Number if kind == Kind::Number => Ok(()),
        Ty::Number => Err(expected("a number", kind)),
        Ty::Object if kind == Kind::Object => Ok(()),
        Ty::Object => Err(expected("an object", kind)),
        Ty::List {
            item,
            nullable_items,
        } => {
            if kind != Kind::Array {
                return Err(expected("an array", kind));
            }
            for i in 0..value.len() {
                let element = value.at(i);
                let element_kind = element.as_ref().map_or(Kind::Null, JsonView::kind);
                match element {
                    Some(e) if element_kind != Kind::Null => {
                        check_kind(&e, element_kind, item).map_err(|m| m.within(Step::Index(i)))?
                    }
                    _ if *nullable_items => {}
                    _ => {
                        return Err(Mismatch::new("expected an element, got null".into())
                            .within(Step::Index(i)))
                    }
                }
            }
            Ok(())
        }
        Ty::Record(fields) => {
            if kind != Kind::Object {
                return Err(expected("an object", kind));
            }
            for field in fields.iter() {
                let member = value.get(field.name);
                let member_kind = member.as_ref().map_or(Kind::Null, JsonView::kind);
                match member {
                    Some(v) if member_kind != Kind::Null => check_kind(&v, member_kind, &field.ty)
                        .map_err(|m| m.within(Step::key(field.name)))?,
                    _ if field.required => {
                        return Err(Mismatch::new("is missing or null".into())
                            .within(Step::key(field.name)))
                    }
                    _ => {}
                }
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    static INNER: [Field; 1] = [Field::optional("n", Ty::Number)];
    static OUTER: [Field; 3] = [
        Field::required("id", Ty::String),
        Field::optional("flag", Ty::Bool),
        Field::optional(
            "items",
            Ty::List {
                item: &Ty::Record(&INNER),
                nullable_items: true,
            },
        ),
    ];

    fn run(v: serde_json::Value) -> Result<(), String> {
        check_walk(&&v, &Ty::Record(&OUTER)).map_err(|m| m.describe(&[Step::key("data")]))
    }

    #[test]
    fn accepts_documented_types_nulls_and_extra_fields() {
        assert_eq!(run(json!({"id": "a"})), Ok(()));
        assert_eq!(
            run(json!({"id": "a", "flag": null, "items": null, "x": [1]})),
            Ok(())
        );
        assert_eq!(
            run(json!({"id": "a", "items": [null, {"n": 1.5, "y": "z"}, {}]})),
            Ok(())
        );
    }

    #[test]
    fn names_the_path_of_a_mismatch() {
        assert_eq!(run(json!({})), Err("at data.id: is missing or null".into()));
        assert_eq!(
            run(json!({"id": null})),
            Err("at data.id: is missing or null".into())
        );
        assert_eq!(
            run(json!({"id": "a", "items": [{}, {"n": "1"}]})),
            Err("at data.items[1].n: expected a number, got a string".into())
        );
        assert_eq!(
            run(json!([])),
            Err("at data: expected an object, got an array".into())
        );
        assert_eq!(
            run(json!({"id": "a", "flag": "yes"})),
            Err("at data.flag: expected a boolean, got a string".into())
        );
        let strict = Ty::List {
            item: &Ty::String,
            nullable_items: false,
        };
        let v = json!(["a", null]);
        assert_eq!(
            check_walk(&&v, &strict).map_err(|m| m.describe(&[])),
            Err("at [1]: expected an element, got null".into())
        );
    }
}
