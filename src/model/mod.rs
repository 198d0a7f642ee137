//! The service's types: closed value sets (event types, document types, ...), the inputs a
//! caller passes (deserialised from JavaScript objects) and the response shapes the decoders
//! check. One file per resource.
//!
//! Response records are *checked*, not converted: the browser parses the JSON, the decoders
//! verify the documented fields have the documented types, and the caller receives the
//! browser's own object, so every field the service sends (known or not) is kept.

pub mod client;
pub mod documents;
pub mod messages;
pub mod webhooks;

/// Returns `Ok(())` when `value` is one of `allowed`, otherwise an explanation naming them.
pub(crate) fn check_enum(value: &str, allowed: &[&str], what: &str) -> Result<(), String> {
    if allowed.contains(&value) {
        Ok(())
    } else {
        Err(format!(
            "unknown {what} {value:?}; expected one of {}",
            allowed.join(", ")
        ))
    }
}

/// Type checks for response fields whose value the caller receives untouched: each accepts
/// `null`/missing or the named JSON type and rejects anything else, without keeping the value.
pub mod check {
    use serde::de::{self, Deserializer, Visitor};
    use serde::Deserialize;
    use std::fmt;

    macro_rules! nullable_check {
        ($(#[$doc:meta])* $name:ident, $expecting:literal, $($method:ident($ty:ty)),+) => {
            $(#[$doc])*
            #[derive(Debug, Default, Clone, Copy)]
            pub struct $name;

            impl<'de> Deserialize<'de> for $name {
                fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                    struct V;
                    impl<'de> Visitor<'de> for V {
                        type Value = $name;
                        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                            f.write_str($expecting)
                        }
                        fn visit_unit<E: de::Error>(self) -> Result<$name, E> {
                            Ok($name)
                        }
                        fn visit_none<E: de::Error>(self) -> Result<$name, E> {
                            Ok($name)
                        }
                        fn visit_some<D2: Deserializer<'de>>(self, d: D2) -> Result<$name, D2::Error> {
                            d.deserialize_any(V)
                        }
                        $(fn $method<E: de::Error>(self, _v: $ty) -> Result<$name, E> {
                            Ok($name)
                        })+
                    }
                    d.deserialize_option(V)
                }
            }
        };
    }

    nullable_check!(
        /// A string or null.
        NullableString, "a string or null",
        visit_str(&str), visit_string(String), visit_borrowed_str(&'de str)
    );
    nullable_check!(
        /// A boolean or null.
        NullableBool, "a boolean or null", visit_bool(bool)
    );
    nullable_check!(
        /// A number or null.
        NullableNumber, "a number or null",
        visit_i64(i64), visit_u64(u64), visit_f64(f64)
    );

    /// An object (any keys) or null.
    #[derive(Debug, Default, Clone, Copy)]
    pub struct NullableObject;

    impl<'de> Deserialize<'de> for NullableObject {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = NullableObject;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("an object or null")
                }
                fn visit_unit<E: de::Error>(self) -> Result<NullableObject, E> {
                    Ok(NullableObject)
                }
                fn visit_none<E: de::Error>(self) -> Result<NullableObject, E> {
                    Ok(NullableObject)
                }
                fn visit_some<D2: Deserializer<'de>>(
                    self,
                    d: D2,
                ) -> Result<NullableObject, D2::Error> {
                    d.deserialize_any(V)
                }
                fn visit_map<A: de::MapAccess<'de>>(
                    self,
                    mut map: A,
                ) -> Result<NullableObject, A::Error> {
                    while map
                        .next_entry::<de::IgnoredAny, de::IgnoredAny>()?
                        .is_some()
                    {}
                    Ok(NullableObject)
                }
            }
            d.deserialize_option(V)
        }
    }
}

pub(crate) use check::{NullableBool, NullableNumber, NullableObject, NullableString};
