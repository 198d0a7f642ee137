//! Pure request building and response checking, one file per resource. No I/O here: every
//! function is unit-tested natively.
//!
//! A call goes: `<resource>::*_request(...)` validates the input and describes an
//! [`HttpRequest`]; the browser layer sends it; `<resource>::check_*` reads the answer's bytes
//! ([`check`], serde_json) into the model's types, or [`status::status_error`] turns a non-2xx
//! answer into an error. The tests drive the same `check_*` functions, from bytes: each answer
//! type has one reader.

#[cfg(any(test, feature = "auth"))]
pub mod auth;
pub mod check;
pub mod documents;
pub mod messages;
pub mod platform;
pub mod rate;
pub mod retry;
pub mod status;
pub mod url;
pub mod webhooks;

use crate::error::Error;
use crate::model::documents::DocumentMetadata;
use crate::model::webhooks::RegisterWebhookInput;
use estatekit_vocab::operations::{GrantType, Operation, Spec};
use serde::{Deserialize, Serialize};
#[cfg(feature = "js")]
use tsify::Tsify;
use url::{check_id, encode_component, QueryString};

pub use url::BaseUrl;

/// HTTP methods the interface uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(Tsify))]
#[serde(rename_all = "UPPERCASE")]
pub enum HttpMethod {
    /// GET
    Get,
    /// POST
    Post,
    /// DELETE
    Delete,
}

impl HttpMethod {
    /// The method's name on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            HttpMethod::Get => "GET",
            HttpMethod::Post => "POST",
            HttpMethod::Delete => "DELETE",
        }
    }

    /// A route's method (the table's are these three: `POST` stands for any other, which
    /// core/tests/operations.rs would find).
    fn of(name: &str) -> HttpMethod {
        match name.as_bytes().first() {
            Some(b'G') => HttpMethod::Get,
            Some(b'D') => HttpMethod::Delete,
            _ => HttpMethod::Post,
        }
    }
}

/// A JSON document sent to the service: the body of a request, or the `metadata` form field.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum JsonBody {
    /// The messages query.
    Graphql(messages::GraphqlRequest),
    /// A webhook registration (`{type, url}`).
    Webhook(RegisterWebhookInput),
    /// An upload's metadata.
    Metadata(DocumentMetadata),
    /// A token request (`estatekit/auth`).
    #[cfg(any(test, feature = "auth"))]
    Grant(auth::GrantBody),
}

/// A field of a `multipart/form-data` body.
#[derive(Clone, Debug, PartialEq)]
pub enum FormValue {
    /// A text field.
    Text(String),
    /// A text field holding a JSON document.
    Json(JsonBody),
}

/// A request body, described without I/O.
#[derive(Clone, Debug, PartialEq)]
pub enum RequestBody {
    /// No body.
    None,
    /// JSON, sent with `Content-Type: application/json`.
    Json(JsonBody),
    /// `multipart/form-data` text fields, in order; the browser layer appends the file part.
    Form(Vec<(&'static str, FormValue)>),
}

/// A fully described request, minus the `Authorization` header (the transport adds it, so the
/// token never passes through request descriptions, logs or tests).
#[derive(Clone, Debug, PartialEq)]
pub struct HttpRequest {
    /// The operation's row of the table (vocab/src/operations.rs): its phrase in messages, how
    /// it may be sent again, what to do when its outcome is unknown.
    pub spec: &'static Spec,
    /// HTTP method.
    pub method: HttpMethod,
    /// Absolute URL with encoded path and query.
    pub url: String,
    /// Body.
    pub body: RequestBody,
}

/// A row of the operation table whose request core builds: an [`Operation`] or a token grant's
/// [`GrantType`] (vocab's `operations!` makes both, with the same accessors). A request builder
/// hands [`HttpRequest::to`] its row whole, so it states only what is its own (a path segment, a
/// query, a body).
pub trait Row: Copy {
    /// What the module reads of the row.
    fn spec(self) -> &'static Spec;
    /// Its own request's method (`GET`).
    fn method(self) -> &'static str;
    /// Its own request's path around the template's `{name}` segment.
    fn path_parts(self) -> (&'static str, Option<&'static str>);
}

/// [`Row`] for vocab's enums, by their own accessors.
macro_rules! rows {
    ($($row:ty),+) => {$(
        impl Row for $row {
            #[inline]
            fn spec(self) -> &'static Spec {
                <$row>::spec(self)
            }
            #[inline]
            fn method(self) -> &'static str {
                self.route().method
            }
            #[inline]
            fn path_parts(self) -> (&'static str, Option<&'static str>) {
                <$row>::path_parts(self)
            }
        }
    )+};
}
rows!(Operation, GrantType);

impl HttpRequest {
    /// The request of `row` (the operation's row of the table): its own route's method under
    /// `base` at the route's path (the method and path template written once, in the table), no
    /// query and no body.
    #[inline]
    pub(crate) fn to(row: impl Row, base: &BaseUrl) -> HttpRequest {
        HttpRequest::to_query(row, base, &QueryString::default())
    }

    /// The request of `row` with `query` after its path.
    #[inline]
    pub(crate) fn to_query(row: impl Row, base: &BaseUrl, query: &QueryString) -> HttpRequest {
        HttpRequest::of(
            row.spec(),
            row.method(),
            row.path_parts(),
            base,
            None,
            query,
        )
    }

    /// The request of `row` with `id` encoded as the path template's one `{name}` segment.
    #[inline(always)]
    pub(crate) fn to_segment(row: impl Row, base: &BaseUrl, id: &str) -> HttpRequest {
        let (spec, method, parts) = (row.spec(), row.method(), row.path_parts());
        HttpRequest::of(spec, method, parts, base, Some(id), &QueryString::default())
    }

    /// The one request of a plain row ([`Operation::plain`]) taking the options alone
    /// (listWebhooks): its route, no query, no body.
    #[inline(always)]
    pub fn plain(op: Operation, base: &BaseUrl) -> HttpRequest {
        HttpRequest::to(op, base)
    }

    /// The one request of a plain row taking one string id (getDocument, deleteWebhook): `id`,
    /// the argument its row names `field`, checked and encoded as its route's one `{name}`
    /// segment.
    #[inline(always)]
    pub fn plain_by_id(
        op: Operation,
        base: &BaseUrl,
        field: &str,
        id: &str,
    ) -> Result<HttpRequest, Error> {
        check_id(field, id)?;
        Ok(HttpRequest::to_segment(op, base, id))
    }

    /// The same request carrying `body`.
    pub(crate) fn carrying(self, body: RequestBody) -> HttpRequest {
        HttpRequest { body, ..self }
    }

    /// The request of a row: `method` under `base`, its path the row's `parts` (the template
    /// before its `{name}` segment and after it, computed at compile time) around `id` encoded as
    /// one path segment, with `query`, no body.
    fn of(
        spec: &'static Spec,
        method: &str,
        parts: (&str, Option<&str>),
        base: &BaseUrl,
        id: Option<&str>,
        query: &QueryString,
    ) -> HttpRequest {
        let path = match (parts, id) {
            ((head, Some(tail)), Some(id)) => format!("{head}{}{tail}", encode_component(id)),
            ((head, _), _) => head.to_owned(),
        };
        HttpRequest {
            spec,
            method: HttpMethod::of(method),
            url: base.join(&path, query),
            body: RequestBody::None,
        }
    }

    /// What the call does, for error messages (`list webhooks`).
    pub fn operation(&self) -> &'static str {
        self.spec.phrase
    }
}

/// Validates a bearer token: non-empty visible ASCII (what a header value can carry; no
/// spaces, line breaks or control characters, so it can never inject a header line).
pub fn check_token(token: &str) -> Result<(), Error> {
    if token.is_empty() {
        return Err(Error::invalid("options.token", "must not be empty"));
    }
    if !token.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(Error::invalid(
            "options.token",
            "must be visible ASCII characters only (no spaces, line breaks, control or non-ASCII characters)",
        ));
    }
    Ok(())
}

/// Checks that an optional caller string is non-empty when given.
pub(crate) fn check_non_empty(field: &str, value: Option<&str>) -> Result<(), Error> {
    match value {
        Some("") => Err(Error::invalid(field, "must not be empty")),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> BaseUrl {
        BaseUrl::normalised("https://acme.example.com/")
    }

    #[test]
    fn plain_requests_encode_and_check_the_id() {
        let r = HttpRequest::plain_by_id(Operation::GetDocument, &base(), "documentId", "../../w")
            .unwrap();
        assert_eq!(
            r.url,
            "https://acme.example.com/api/file-storage/company/documents/..%2F..%2Fw/metadata"
        );
        let r = HttpRequest::plain_by_id(Operation::DeleteDocument, &base(), "documentId", "a%2Fb")
            .unwrap();
        assert_eq!(
            r.url,
            "https://acme.example.com/api/file-storage/company/documents/a%252Fb"
        );
        assert_eq!(
            (r.method, r.spec.resend),
            (HttpMethod::Delete, crate::error::Resend::Idempotent)
        );
        let r =
            HttpRequest::plain_by_id(Operation::DeleteWebhook, &base(), "webhookId", "../x?y#z")
                .unwrap();
        assert_eq!(
            r.url,
            "https://acme.example.com/api/external-integrations/webhooks/..%2Fx%3Fy%23z"
        );
        for bad in ["", ".", ".."] {
            let e = HttpRequest::plain_by_id(Operation::DeleteWebhook, &base(), "webhookId", bad)
                .unwrap_err();
            assert!(e.to_string().starts_with("invalid webhookId"), "{e}");
        }
        let r = HttpRequest::plain(Operation::ListWebhooks, &base());
        assert_eq!(
            (r.method, r.url.as_str()),
            (
                HttpMethod::Get,
                "https://acme.example.com/api/external-integrations/webhooks"
            )
        );
    }

    #[test]
    fn tokens_are_checked_without_echoing_them() {
        assert!(check_token("eyJhbGciOi.abc-_.xyz").is_ok());
        for bad in [
            "",
            "a b",
            "abc\r\nX-Evil: 1",
            "tab\there",
            "nul\0",
            "abc€",
            "é",
        ] {
            let e = check_token(bad).unwrap_err();
            assert!(e.to_string().starts_with("invalid options.token"));
            if !bad.is_empty() {
                assert!(!e.to_string().contains(bad));
            }
        }
    }
}
