//! Webhooks (4.6-4.8): list, register (id from `Location`), delete.

use super::check::{check, read};
use super::status::LenientText;
use super::url::check_http_url;
use super::{BaseUrl, HttpRequest, JsonBody, RequestBody};
use crate::error::Error;
use crate::model::webhooks::{RegisterWebhookInput, Webhook};
use estatekit_vocab::operations::Operation;
use percent_encoding::percent_decode_str;
use serde::Deserialize;

/// `GET /api/external-integrations/webhooks`.
pub fn list_request(base: &BaseUrl) -> HttpRequest {
    HttpRequest::to(Operation::ListWebhooks, base)
}

/// Checks a list answer's bytes (the array at `key`: empty, or the wrapping key).
pub fn check_list(status: u16, key: &str, body: &[u8]) -> Result<Vec<Webhook>, Error> {
    check(Operation::ListWebhooks.phrase(), status, key, body)
}

/// `POST /api/external-integrations/webhooks` with `{type, url}`.
pub fn register_request(
    base: &BaseUrl,
    input: &RegisterWebhookInput,
) -> Result<HttpRequest, Error> {
    check_http_url("input.url", &input.url)?;
    let body = RequestBody::Json(JsonBody::Webhook(input.clone()));
    Ok(HttpRequest::to(Operation::RegisterWebhook, base).carrying(body))
}

/// The webhook id in a `Location` header: a bare id, or a URL/path whose last segment is it.
pub fn id_from_location(location: &str) -> Option<String> {
    let location = location.trim();
    let without_suffix = location.split(['?', '#']).next().unwrap_or("");
    let segment = without_suffix.trim_end_matches('/').rsplit('/').next()?;
    if segment.is_empty() || segment.ends_with(':') {
        return None;
    }
    Some(
        percent_decode_str(segment)
            .decode_utf8()
            .map_or_else(|_| segment.to_owned(), |id| id.into_owned()),
    )
}

/// The part of a register answer's body that may name the new webhook.
#[derive(Deserialize)]
#[serde(remote = "Self")]
struct WithId {
    #[serde(default)]
    id: Option<LenientText>,
}

/// The `id` in a register answer's bytes (a string or an integer), if there is one.
pub fn id_in_answer(body: &[u8]) -> Option<String> {
    read::<WithId>(body)?.id?.0.filter(|id| !id.is_empty())
}

crate::objects_only!(WithId);

/// The id of the newest webhook in a decoded list with this type and URL, if any.
pub fn find_registered(list: &[Webhook], input: &RegisterWebhookInput) -> Option<String> {
    let wanted = input.event_type.as_str();
    list.iter()
        .rev()
        .find(|w| w.event_type.is(wanted) && w.url.is(&input.url))
        .map(|w| w.id.to_rust())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::HttpMethod;
    use crate::error::ApiErrorKind;
    use serde_json::json;

    fn base() -> BaseUrl {
        BaseUrl::normalised("https://acme.example.com/")
    }

    fn input(t: &str, url: &str) -> RegisterWebhookInput {
        serde_json::from_value(json!({"type": t, "url": url})).unwrap()
    }

    #[test]
    fn list_request_is_exact() {
        assert_eq!(
            list_request(&base()),
            HttpRequest {
                spec: Operation::ListWebhooks.spec(),
                method: HttpMethod::Get,
                url: "https://acme.example.com/api/external-integrations/webhooks".into(),
                body: RequestBody::None,
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
        assert_eq!(r.method, HttpMethod::Post);
        assert_eq!(
            r.url,
            "https://acme.example.com/api/external-integrations/webhooks"
        );
        let RequestBody::Json(body) = &r.body else {
            panic!("expected JSON")
        };
        assert_eq!(
            serde_json::to_value(body).unwrap(),
            json!({"type": "UNIT_CREATED", "url": "https://hooks.example.com/a\"b"})
        );
        assert_eq!(r.spec.resend, crate::error::Resend::NotIdempotent);
    }

    #[test]
    fn register_input_is_validated() {
        for bad in [
            json!({"type": "UNIT_EXPLODED", "url": "https://x.example.com"}),
            json!({"type": "unit_created", "url": "https://x.example.com"}),
            json!({"type": "UNIT_CREATED"}),
        ] {
            assert!(
                serde_json::from_value::<RegisterWebhookInput>(bad.clone()).is_err(),
                "{bad}"
            );
        }
        let e = register_request(&base(), &input("UNIT_CREATED", "ftp://x")).unwrap_err();
        assert_eq!(e.kind(), ApiErrorKind::InvalidInput);
        assert!(e.to_string().contains("input.url"), "{e}");
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
    fn id_in_answer_is_lenient() {
        let id = |s: &str| id_in_answer(s.as_bytes());
        assert_eq!(id(r#"{"id":"w1","x":[1]}"#).as_deref(), Some("w1"));
        assert_eq!(id(r#"{"id":7}"#).as_deref(), Some("7"));
        assert_eq!(id(r#"{"id":""}"#), None);
        assert_eq!(id(r#"[]"#), None);
        assert_eq!(id(r#"null"#), None);
    }

    #[test]
    fn decodes_records_and_finds_registrations() {
        let body = json!([
          {"id":"1","type":"UNIT_CREATED","partnerId":"p","companyId":"c","connectedByUserId":"u",
           "url":"https://h/1","createdAt":"2020-09-30T10:07:28.052Z","updatedAt":"2020-09-30T10:07:28.052Z","deletedAt":null},
          {"id":"2","type":"SOMETHING_NEW","url":"https://h/2","extra":{"x":1}},
          {"id":"3","type":"UNIT_CREATED","url":"https://h/1"}
        ]);
        let list = check_list(200, "", &serde_json::to_vec(&body).unwrap()).unwrap();
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
            r#"[{"type":"UNIT_CREATED"}]"#,
            r#"[{"id":"1","type":"UNIT_CREATED","url":"https://h","deletedAt":5}]"#,
            r#"[{"id":"1","type":"UNIT_CREATED"}]"#,
            r#"[null]"#,
            r#""hello""#,
        ] {
            let e = check_list(200, "", body.as_bytes()).unwrap_err();
            assert_eq!(e.kind(), ApiErrorKind::Decode, "{body}");
        }
        let body = r#"{"items":[{"id":"a","type":"T","url":"u"}, {"id":5}]}"#;
        let e = check_list(200, "items", body.as_bytes()).unwrap_err();
        assert!(
            e.to_string().contains("at items[1].id: invalid type"),
            "{e}"
        );
    }
}
