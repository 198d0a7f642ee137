//! Webhooks (4.6-4.8): list, register (id from `Location`), delete.

use super::json::ObjectWriter;
use super::response::{check_body, Listed};
use super::url::{check_http_url, check_id, encode_component, QueryString};
use super::{BaseUrl, HttpRequest, Method, RequestBody};
use crate::error::Error;
use crate::model::check_enum;
use crate::model::webhooks::{RegisterWebhookInput, WebhookCheck, EVENT_TYPES};
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::Deserialize;
use std::fmt;

const PATH: &str = "/api/external-integrations/webhooks";

/// Operation names used in messages.
pub const LIST: &str = "list webhooks";
/// Operation name of `registerWebhook`.
pub const REGISTER: &str = "register webhook";
/// Operation name of `deleteWebhook`.
pub const DELETE: &str = "delete webhook";

/// `GET /api/external-integrations/webhooks`.
pub fn list_request(base: &BaseUrl) -> HttpRequest {
    HttpRequest {
        operation: LIST,
        method: Method::Get,
        url: base.join(PATH, &QueryString::default()),
        body: RequestBody::None,
        retry_safe: true,
    }
}

/// Checks a list answer; returns where the array is and the records' id/type/url.
pub fn decode_list<'de, D: Deserializer<'de>>(
    status: u16,
    body: D,
) -> Result<Listed<WebhookCheck>, Error> {
    check_body(LIST, status, body)
}

/// Validates the input of `registerWebhook`.
pub fn check_register_input(input: &RegisterWebhookInput) -> Result<(), Error> {
    check_enum(&input.event_type, &EVENT_TYPES, "event type")
        .map_err(|reason| Error::invalid("input.type", reason))?;
    check_http_url("input.url", &input.url)
}

/// `POST /api/external-integrations/webhooks` with `{type, url}`.
pub fn register_request(
    base: &BaseUrl,
    input: &RegisterWebhookInput,
) -> Result<HttpRequest, Error> {
    check_register_input(input)?;
    let mut body = ObjectWriter::new();
    body.string("type", &input.event_type)
        .string("url", &input.url);
    Ok(HttpRequest {
        operation: REGISTER,
        method: Method::Post,
        url: base.join(PATH, &QueryString::default()),
        body: RequestBody::Json(body.finish()),
        retry_safe: false,
    })
}

/// The webhook id in a `Location` header: a bare id, or a URL/path whose last segment is it.
pub fn id_from_location(location: &str) -> Option<String> {
    let location = location.trim();
    let without_suffix = location.split(['?', '#']).next().unwrap_or("");
    let segment = without_suffix.trim_end_matches('/').rsplit('/').next()?;
    if segment.is_empty() || segment.ends_with(':') {
        return None;
    }
    Some(percent_decode(segment).unwrap_or_else(|| segment.to_string()))
}

fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The `id` in a register answer's JSON body (string or number), if there is one.
#[derive(Debug, Default, PartialEq)]
pub struct IdInBody(pub Option<String>);

impl<'de> Deserialize<'de> for IdInBody {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = IdInBody;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<IdInBody, A::Error> {
                let mut id = None;
                while let Some(super::response::LenientText(k)) = map.next_key()? {
                    if k.as_deref() == Some("id") {
                        let super::response::LenientText(v) = map.next_value()?;
                        id = v.filter(|v| !v.is_empty());
                    } else {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(IdInBody(id))
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<IdInBody, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(IdInBody(None))
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<IdInBody, E> {
                Ok(IdInBody(None))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<IdInBody, E> {
                Ok(IdInBody(None))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<IdInBody, E> {
                Ok(IdInBody(None))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<IdInBody, E> {
                Ok(IdInBody(None))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<IdInBody, E> {
                Ok(IdInBody(None))
            }
            fn visit_unit<E: de::Error>(self) -> Result<IdInBody, E> {
                Ok(IdInBody(None))
            }
        }
        d.deserialize_any(V)
    }
}

/// The id of the newest listed webhook with this type and URL, if any.
pub fn find_registered(
    list: &Listed<WebhookCheck>,
    input: &RegisterWebhookInput,
) -> Option<String> {
    list.items
        .iter()
        .rev()
        .find(|w| w.event_type == input.event_type && w.url == input.url)
        .map(|w| w.id.clone())
}

/// `DELETE /api/external-integrations/webhooks/{id}`.
pub fn delete_request(base: &BaseUrl, id: &str) -> Result<HttpRequest, Error> {
    check_id("id", id)?;
    Ok(HttpRequest {
        operation: DELETE,
        method: Method::Delete,
        url: base.join(
            &format!("{PATH}/{}", encode_component(id)),
            &QueryString::default(),
        ),
        body: RequestBody::None,
        retry_safe: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::response::ListShape;
    use crate::error::ErrorKind;

    fn base() -> BaseUrl {
        BaseUrl::parse("https://acme.example.com/").unwrap()
    }

    fn input(t: &str, url: &str) -> RegisterWebhookInput {
        RegisterWebhookInput {
            event_type: t.into(),
            url: url.into(),
        }
    }

    #[test]
    fn list_request_is_exact() {
        assert_eq!(
            list_request(&base()),
            HttpRequest {
                operation: "list webhooks",
                method: Method::Get,
                url: "https://acme.example.com/api/external-integrations/webhooks".into(),
                body: RequestBody::None,
                retry_safe: true,
            }
        );
    }

    #[test]
    fn register_request_is_exact() {
        let r = register_request(
            &base(),
            &input("UNIT_CREATED", "https://hooks.example.com/a\"b"),
        )
        .unwrap();
        assert_eq!(r.method, Method::Post);
        assert_eq!(
            r.url,
            "https://acme.example.com/api/external-integrations/webhooks"
        );
        assert_eq!(
            r.body,
            RequestBody::Json(
                r#"{"type":"UNIT_CREATED","url":"https://hooks.example.com/a\"b"}"#.into()
            )
        );
        assert!(!r.retry_safe);
    }

    #[test]
    fn register_input_is_validated() {
        let e = register_request(&base(), &input("UNIT_EXPLODED", "https://x.example.com"))
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidInput);
        assert!(e.to_string().contains("input.type"), "{e}");
        assert!(e.to_string().contains("LISTING_CREATED"), "{e}");
        let e = register_request(&base(), &input("UNIT_CREATED", "ftp://x")).unwrap_err();
        assert!(e.to_string().contains("input.url"), "{e}");
        assert!(
            register_request(&base(), &input("unit_created", "https://x.example.com")).is_err()
        );
    }

    #[test]
    fn location_forms() {
        assert_eq!(id_from_location("abc-123").as_deref(), Some("abc-123"));
        assert_eq!(id_from_location(" abc ").as_deref(), Some("abc"));
        assert_eq!(
            id_from_location("/api/external-integrations/webhooks/abc/").as_deref(),
            Some("abc")
        );
        assert_eq!(
            id_from_location(
                "https://acme.example.com/api/external-integrations/webhooks/a%20b?x=1"
            )
            .as_deref(),
            Some("a b")
        );
        assert_eq!(id_from_location(""), None);
        assert_eq!(id_from_location("/"), None);
        assert_eq!(id_from_location("https://"), None);
    }

    #[test]
    fn id_in_body_is_lenient() {
        let id = |s: &str| serde_json::from_str::<IdInBody>(s).unwrap().0;
        assert_eq!(id(r#"{"id":"w1","x":[1]}"#).as_deref(), Some("w1"));
        assert_eq!(id(r#"{"id":7}"#).as_deref(), Some("7"));
        assert_eq!(id(r#"{"id":""}"#), None);
        assert_eq!(id(r#"[]"#), None);
        assert_eq!(id(r#"null"#), None);
    }

    #[test]
    fn decodes_records_and_finds_registrations() {
        let body = r#"[
          {"id":"1","type":"UNIT_CREATED","partnerId":"p","companyId":"c","connectedByUserId":"u",
           "url":"https://h/1","createdAt":"2020-09-30T10:07:28.052Z","updatedAt":"2020-09-30T10:07:28.052Z","deletedAt":null},
          {"id":"2","type":"SOMETHING_NEW","url":"https://h/2","extra":{"x":1}},
          {"id":"3","type":"UNIT_CREATED","url":"https://h/1"}
        ]"#;
        let l = decode_list(200, &mut serde_json::Deserializer::from_str(body)).unwrap();
        assert_eq!(l.shape, ListShape::Bare);
        assert_eq!(l.items.len(), 3);
        assert_eq!(
            find_registered(&l, &input("UNIT_CREATED", "https://h/1")).as_deref(),
            Some("3")
        );
        assert_eq!(
            find_registered(&l, &input("UNIT_DELETED", "https://h/1")),
            None
        );
    }

    #[test]
    fn bad_records_are_decode_errors() {
        for body in [
            r#"{"webhooks":[]}"#,
            r#"[{"type":"UNIT_CREATED"}]"#,
            r#"[{"id":"1","type":"UNIT_CREATED","url":"https://h","deletedAt":5}]"#,
            r#"[{"id":"1","type":"UNIT_CREATED"}]"#,
            r#"[null]"#,
            r#""hello""#,
        ] {
            let e = decode_list(200, &mut serde_json::Deserializer::from_str(body)).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::Decode, "{body}");
        }
    }

    #[test]
    fn delete_encodes_the_id() {
        let r = delete_request(&base(), "../x?y#z").unwrap();
        assert_eq!(r.method, Method::Delete);
        assert_eq!(
            r.url,
            "https://acme.example.com/api/external-integrations/webhooks/..%2Fx%3Fy%23z"
        );
        assert!(r.retry_safe);
        assert!(delete_request(&base(), "").is_err());
    }
}
