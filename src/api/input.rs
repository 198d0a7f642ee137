//! Caller input as a plain value tree, and readers that turn it into the input structs of
//! `crate::model` with errors naming the offending field (`invalid options.paging.take: ...`).
//! The browser layer copies each JavaScript argument into an [`InputValue`] (every own key,
//! so misspelt options are reported instead of silently ignored).

use crate::error::Error;
use crate::text::{concat, index, join};

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

impl InputValue {
    fn described(&self) -> &'static str {
        match self {
            InputValue::Undefined => "undefined",
            InputValue::Null => "null",
            InputValue::Bool(_) => "a boolean",
            InputValue::Number(_) => "a number",
            InputValue::String(_) => "a string",
            InputValue::Array(_) => "an array",
            InputValue::Object(_) => "an object",
            InputValue::Opaque(what) => what,
        }
    }

    fn is_absent(&self) -> bool {
        matches!(self, InputValue::Undefined | InputValue::Null)
    }

    /// Reads this value as an object with only the `known` keys (field name `path`).
    pub fn object<'a>(&'a self, path: &str, known: &[&str]) -> Result<Fields<'a>, Error> {
        let InputValue::Object(entries) = self else {
            return Err(Error::invalid(
                path,
                concat(&["must be an object, got ", self.described()]),
            ));
        };
        if let Some((key, _)) = entries.iter().find(|(k, _)| !known.contains(&k.as_str())) {
            return Err(Error::invalid(
                concat(&[path, ".", key]),
                concat(&[
                    "is not a known option; expected one of ",
                    &join(known, ", "),
                ]),
            ));
        }
        Ok(Fields {
            path: path.to_owned(),
            entries,
        })
    }
}

/// The members of an input object, read one by one.
#[derive(Debug)]
pub struct Fields<'a> {
    path: String,
    entries: &'a [(String, InputValue)],
}

impl<'a> Fields<'a> {
    /// The field name of member `key`, e.g. `options.paging.take`.
    pub fn path_of(&self, key: &str) -> String {
        concat(&[&self.path, ".", key])
    }

    /// Member `key`, `None` when absent, `undefined` or `null`.
    pub fn value(&self, key: &str) -> Option<&'a InputValue> {
        self.entries
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
            .filter(|v| !v.is_absent())
    }

    fn wrong(&self, key: &str, expected: &str, got: &InputValue) -> Error {
        Error::invalid(
            self.path_of(key),
            concat(&["must be ", expected, ", got ", got.described()]),
        )
    }

    /// An optional string.
    pub fn string(&self, key: &str) -> Result<Option<String>, Error> {
        match self.value(key) {
            None => Ok(None),
            Some(InputValue::String(s)) => Ok(Some(s.clone())),
            Some(other) => Err(self.wrong(key, "a string", other)),
        }
    }

    /// A required string.
    pub fn required_string(&self, key: &str) -> Result<String, Error> {
        self.string(key)?
            .ok_or_else(|| Error::invalid(self.path_of(key), "is required"))
    }

    /// An optional whole number from 0 to 4294967295.
    pub fn count(&self, key: &str) -> Result<Option<u32>, Error> {
        match self.value(key) {
            None => Ok(None),
            Some(InputValue::Number(n))
                if n.fract() == 0.0 && (0.0..=4_294_967_295.0).contains(n) =>
            {
                Ok(Some(*n as u32))
            }
            Some(other) => Err(self.wrong(key, "a whole number from 0 to 4294967295", other)),
        }
    }

    /// An optional array of strings.
    pub fn strings(&self, key: &str) -> Result<Option<Vec<String>>, Error> {
        match self.value(key) {
            None => Ok(None),
            Some(InputValue::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(i, item)| match item {
                    InputValue::String(s) => Ok(s.clone()),
                    other => Err(Error::invalid(
                        concat(&[&self.path_of(key), &index(i)]),
                        concat(&["must be a string, got ", other.described()]),
                    )),
                })
                .collect::<Result<Vec<_>, _>>()
                .map(Some),
            Some(other) => Err(self.wrong(key, "an array of strings", other)),
        }
    }

    /// An optional nested object with only the `known` keys.
    pub fn object(&self, key: &str, known: &[&str]) -> Result<Option<Fields<'a>>, Error> {
        self.value(key)
            .map(|v| v.object(&self.path_of(key), known))
            .transpose()
    }
}

/// Input structs built from caller input.
pub trait FromInput: Sized {
    /// Reads `value`, naming `path` in errors.
    fn from_input(value: &InputValue, path: &str) -> Result<Self, Error>;

    /// Reads an optional argument: `undefined`/`null` give the defaults.
    fn from_optional(value: &InputValue, path: &str) -> Result<Self, Error>
    where
        Self: Default,
    {
        if value.is_absent() {
            Ok(Self::default())
        } else {
            Self::from_input(value, path)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
        let o = MessagesOptions::from_input(&value, "options").unwrap();
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
                obj(&[("fields", InputValue::Array(vec![s("id"), InputValue::Null]))]),
                "invalid options.fields[1]:",
            ),
            (
                obj(&[("timeoutMs", InputValue::Number(5e12))]),
                "invalid options.timeoutMs:",
            ),
            (s("x"), "invalid options: must be an object, got a string"),
        ];
        for (value, prefix) in cases {
            let e = MessagesOptions::from_input(&value, "options").unwrap_err();
            assert!(e.to_string().starts_with(prefix), "{e} / {prefix}");
        }
        let e = RegisterWebhookInput::from_input(&obj(&[("type", s("UNIT_CREATED"))]), "input")
            .unwrap_err();
        assert_eq!(e.to_string(), "invalid input.url: is required");
        let e = RegisterWebhookInput::from_input(&InputValue::Opaque("a function"), "input")
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid input: must be an object, got a function"
        );
        assert_eq!(
            MessagesOptions::from_optional(&InputValue::Null, "options").unwrap(),
            MessagesOptions::default()
        );
    }
}
