//! Caller input as a plain value tree. The browser layer copies a JavaScript argument into an
//! [`InputValue`] (every own key, so misspelt options are caught by `deny_unknown_fields`),
//! and the input structs of `crate::model` are deserialised from it here, natively testable.

use serde::de::value::{Error as ValueError, MapDeserializer, SeqDeserializer};
use serde::de::{self, Deserializer, IntoDeserializer, Unexpected, Visitor};
use serde::forward_to_deserialize_any;

/// A JavaScript value as caller input.
#[derive(Clone, Debug, PartialEq)]
pub enum InputValue {
    /// `undefined` (a missing option).
    Undefined,
    /// `null`.
    Null,
    /// A boolean.
    Bool(bool),
    /// A number.
    Number(f64),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<InputValue>),
    /// A plain object, with its own enumerable keys in order.
    Object(Vec<(String, InputValue)>),
    /// Something that is not data (a function, a `Blob`, an `AbortSignal`, ...), described.
    Opaque(&'static str),
}

impl<'de> IntoDeserializer<'de, ValueError> for InputValue {
    type Deserializer = InputValue;
    fn into_deserializer(self) -> InputValue {
        self
    }
}

impl<'de> Deserializer<'de> for InputValue {
    type Error = ValueError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ValueError> {
        match self {
            InputValue::Undefined | InputValue::Null => visitor.visit_unit(),
            InputValue::Bool(b) => visitor.visit_bool(b),
            InputValue::Number(n) => {
                // Integral numbers are presented as integers so that `u32` fields accept them.
                if n.fract() == 0.0 && n.abs() <= 9_007_199_254_740_991.0 {
                    if n >= 0.0 {
                        visitor.visit_u64(n as u64)
                    } else {
                        visitor.visit_i64(n as i64)
                    }
                } else {
                    visitor.visit_f64(n)
                }
            }
            InputValue::String(s) => visitor.visit_string(s),
            InputValue::Array(items) => {
                let mut seq = SeqDeserializer::new(items.into_iter());
                let value = visitor.visit_seq(&mut seq)?;
                seq.end()?;
                Ok(value)
            }
            InputValue::Object(entries) => {
                let mut map = MapDeserializer::new(entries.into_iter());
                let value = visitor.visit_map(&mut map)?;
                map.end()?;
                Ok(value)
            }
            InputValue::Opaque(what) => {
                Err(de::Error::invalid_type(Unexpected::Other(what), &visitor))
            }
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ValueError> {
        match self {
            InputValue::Undefined | InputValue::Null => visitor.visit_none(),
            other => visitor.visit_some(other),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ValueError> {
        visitor.visit_unit()
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::response::parse_input;
    use crate::model::messages::MessagesOptions;
    use crate::model::webhooks::RegisterWebhookInput;

    fn obj(entries: &[(&str, InputValue)]) -> InputValue {
        InputValue::Object(
            entries
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        )
    }

    fn s(v: &str) -> InputValue {
        InputValue::String(v.into())
    }

    #[test]
    fn parses_nested_inputs() {
        let value = obj(&[
            ("fields", InputValue::Array(vec![s("id"), s("text")])),
            (
                "paging",
                obj(&[
                    ("skip", InputValue::Number(2.0)),
                    ("take", InputValue::Undefined),
                ]),
            ),
            ("signal", InputValue::Opaque("an AbortSignal")),
        ]);
        let o: MessagesOptions = parse_input("options", value).unwrap();
        assert_eq!(o.fields, Some(vec!["id".to_string(), "text".to_string()]));
        assert_eq!(o.paging.as_ref().and_then(|p| p.skip), Some(2));
        assert_eq!(o.paging.as_ref().and_then(|p| p.take), None);
    }

    #[test]
    fn names_the_offending_field() {
        let cases = [
            (
                obj(&[("paging", obj(&[("take", InputValue::Number(-1.0))]))]),
                "invalid options.paging.take:",
            ),
            (
                obj(&[("paging", obj(&[("skip", InputValue::Number(1.5))]))]),
                "invalid options.paging.skip:",
            ),
            (
                obj(&[("paging", obj(&[("size", InputValue::Number(1.0))]))]),
                "invalid options.paging.size:",
            ),
            (
                obj(&[(
                    "sort",
                    obj(&[("fieldName", InputValue::Opaque("a function"))]),
                )]),
                "invalid options.sort.fieldName:",
            ),
            (obj(&[("fields", s("id"))]), "invalid options.fields:"),
            (
                obj(&[("timeoutMs", InputValue::Number(5e12))]),
                "invalid options.timeoutMs:",
            ),
        ];
        for (value, prefix) in cases {
            let e = parse_input::<MessagesOptions, _>("options", value).unwrap_err();
            assert!(e.to_string().starts_with(prefix), "{e} / {prefix}");
        }
        let e =
            parse_input::<RegisterWebhookInput, _>("input", obj(&[("type", s("UNIT_CREATED"))]))
                .unwrap_err();
        assert!(e.to_string().contains("missing field `url`"), "{e}");
        let e = parse_input::<RegisterWebhookInput, _>("input", InputValue::Opaque("a function"))
            .unwrap_err();
        assert!(e.to_string().starts_with("invalid input:"), "{e}");
    }
}
