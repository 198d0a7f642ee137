//! Webhooks (4.6-4.8): list, register (id from `Location`), delete.

use super::json::ObjectWriter;
use super::json_view::JsonView;
use super::response::{check_list, lenient_text, ListShape};
use super::url::{check_http_url, check_id, encode_component, QueryString};
use super::{BaseUrl, HttpRequest, Method, RequestBody};
use crate::error::Error;
use crate::model::check_enum;
use crate::model::webhooks::{RegisterWebhookInput, EVENT_TYPES, WEBHOOK_LIST};
use crate::text::concat;

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

/// Checks a list answer; returns where the array was and the array.
pub fn decode_list<V: JsonView>(status: u16, body: V) -> Result<(ListShape, V), Error> {
    check_list(LIST, status, body, &WEBHOOK_LIST)
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

/// The `id` in a register answer's JSON body (a string or an integer), if there is one.
pub fn id_in_body<V: JsonView>(body: &V) -> Option<String> {
    body.get("id")
        .and_then(|v| lenient_text(&v))
        .filter(|id| !id.is_empty())
}

/// The id of the newest webhook in a checked list with this type and URL, if any.
pub fn find_registered<V: JsonView>(list: &V, input: &RegisterWebhookInput) -> Option<String> {
    (0..list.len())
        .rev()
        .filter_map(|i| list.at(i))
        .find_map(|w| {
            let text = |key| w.get(key).and_then(|v| v.text());
            (text("type").as_deref() == Some(input.event_type.as_str())
                && text("url").as_deref() == Some(input.url.as_str()))
            .then(|| text("id"))
            .flatten()
        })
}

/// `DELETE /api/external-integrations/webhooks/{id}`.
pub fn delete_request(base: &BaseUrl, id: &str) -> Result<HttpRequest, Error> {
    check_id("id", id)?;
    Ok(HttpRequest {
        operation: DELETE,
        method: Method::Delete,
        url: base.join(
            &concat(&[PATH, "/", &encode_component(id)]),
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
        let id = |s: &str| {
            let v: serde_json::Value = serde_json::from_str(s).unwrap();
            id_in_body(&&v)
        };
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
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        let (shape, list) = decode_list(200, &v).unwrap();
        assert_eq!(shape, ListShape::Bare);
        assert_eq!(list.len(), 3);
        assert_eq!(
            find_registered(&list, &input("UNIT_CREATED", "https://h/1")).as_deref(),
            Some("3")
        );
        assert_eq!(
            find_registered(&list, &input("UNIT_DELETED", "https://h/1")),
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
            let v: serde_json::Value = serde_json::from_str(body).unwrap();
            let e = decode_list(200, &v).unwrap_err();
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
