//! The service's types: closed value sets (event types, document types, ...), the inputs a
//! caller passes (deserialised from JavaScript objects) and the response shapes the decoders
//! check. One file per resource.
//!
//! Response shapes are data ([`crate::api::schema::Ty`]): the browser parses the JSON, the
//! decoders check the documented fields have the documented types, and the caller receives
//! the browser's own object, so every field the service sends (known or not) is kept.

use crate::text::{concat, join};

pub mod client;
/// The public TypeScript declarations (added to `pkg/estatekit.d.ts` by the browser layer).
pub const TYPESCRIPT_DECLARATIONS: &str = include_str!("estatekit.d.ts");
pub mod documents;
pub mod messages;
pub mod webhooks;

/// Returns `Ok(())` when `value` is one of `allowed`, otherwise an explanation naming them.
pub(crate) fn check_enum(value: &str, allowed: &[&str], what: &str) -> Result<(), String> {
    if allowed.contains(&value) {
        Ok(())
    } else {
        Err(concat(&[
            "unknown ",
            what,
            " \"",
            value,
            "\"; expected one of ",
            &join(allowed, ", "),
        ]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The string-literal members of `export type <name> = ...;` in the declarations.
    fn ts_union(name: &str) -> Vec<String> {
        let start = format!("export type {name} =");
        let text = TYPESCRIPT_DECLARATIONS;
        let from = text.find(&start).map(|i| i + start.len()).unwrap_or(0);
        let body = text.get(from..).unwrap_or("");
        let body = body.get(..body.find(';').unwrap_or(0)).unwrap_or("");
        body.split('|')
            .map(|m| m.trim().trim_matches('"').to_string())
            .filter(|m| !m.is_empty())
            .collect()
    }

    #[test]
    fn typescript_unions_match_the_rust_lists() {
        assert_eq!(ts_union("EventType"), webhooks::EVENT_TYPES);
        assert_eq!(ts_union("DocumentType"), documents::DOCUMENT_TYPES);
        assert_eq!(ts_union("ImageFormat"), documents::IMAGE_FORMATS);
        assert_eq!(ts_union("MessageSentBy"), messages::MESSAGE_SENT_BY);
        assert_eq!(ts_union("MessageField"), messages::MESSAGE_FIELDS);
        assert_eq!(ts_union("SortDirection"), messages::SORT_DIRECTIONS);
        let kinds: Vec<&str> = crate::error::ErrorKind::ALL
            .iter()
            .map(|k| k.as_str())
            .collect();
        assert_eq!(ts_union("ApiErrorKind"), kinds);
        let words = TYPESCRIPT_DECLARATIONS.split(|c: char| !c.is_alphanumeric() && c != '_');
        assert!(
            words.clone().all(|w| w != "any"),
            "no `any` in the public types"
        );
        assert!(words.filter(|w| *w == "EventType").count() > 1);
    }

    #[test]
    fn enum_check_names_the_choices() {
        assert!(check_enum("PNG", &documents::IMAGE_FORMATS, "image format").is_ok());
        let e = check_enum("GIF", &documents::IMAGE_FORMATS, "image format").unwrap_err();
        assert_eq!(e, "unknown image format \"GIF\"; expected one of JPEG, PNG");
    }
}
