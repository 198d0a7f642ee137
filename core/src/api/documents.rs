//! Documents (4.2-4.5): upload, list metadata, get one's metadata, delete.

use super::check::{check, Checked};
use super::url::QueryString;
use super::{check_non_empty, BaseUrl, FormValue, HttpRequest, JsonBody, RequestBody};
use crate::error::Error;
use crate::model::documents::{DocumentMetadata, DocumentRecord, ListDocumentsQuery};
use crate::model::Unread;
use estatekit_vocab::operations::Operation;

/// The text fields of an upload (the file part is the browser layer's).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UploadFields {
    /// Virtual folder, e.g. `tenants/<tenant_id>`.
    pub resource_path: String,
    /// Metadata linking the document to other objects.
    pub metadata: Option<DocumentMetadata>,
    /// Forces another file name.
    pub name: Option<String>,
    /// Image conversion, as its wire value (`PNG`).
    pub format: Option<String>,
}

/// Validates a resource path: non-empty, no `.` or `..` segment, no control characters.
pub fn check_resource_path(path: &str) -> Result<(), Error> {
    let field = "input.resourcePath";
    if path.trim_matches('/').is_empty() {
        return Err(Error::invalid(field, "must not be empty"));
    }
    if path.chars().any(char::is_control) {
        return Err(Error::invalid(field, "must not contain control characters"));
    }
    if path.split(['/', '\\']).any(|s| s == ".." || s == ".") {
        return Err(Error::invalid(field, "must not contain . or .. segments"));
    }
    Ok(())
}

fn check_metadata(meta: &DocumentMetadata) -> Result<(), Error> {
    for (field, value) in [
        ("input.metadata.tenantId", &meta.tenant_id),
        ("input.metadata.unitId", &meta.unit_id),
        ("input.metadata.propertyId", &meta.property_id),
        ("input.metadata.propertyGroupId", &meta.property_group_id),
    ] {
        check_non_empty(field, value.as_deref())?;
    }
    Ok(())
}

/// `POST /api/file-storage/company/documents` (multipart): `resourcePath`, `metadata` (a JSON
/// string, `{}` when none is given), then `name` and `format` when given. The browser layer
/// appends the `file` part from the caller's `Blob`.
pub fn upload_request(base: &BaseUrl, input: &UploadFields) -> Result<HttpRequest, Error> {
    check_resource_path(&input.resource_path)?;
    check_non_empty("input.name", input.name.as_deref())?;
    let metadata = input.metadata.clone().unwrap_or_default();
    check_metadata(&metadata)?;
    let mut fields = vec![
        ("resourcePath", FormValue::Text(input.resource_path.clone())),
        ("metadata", FormValue::Json(JsonBody::Metadata(metadata))),
    ];
    if let Some(n) = &input.name {
        fields.push(("name", FormValue::Text(n.clone())));
    }
    if let Some(f) = &input.format {
        fields.push(("format", FormValue::Text(f.clone())));
    }
    Ok(HttpRequest::to(Operation::UploadDocument, base).carrying(RequestBody::Form(fields)))
}

/// `GET /api/file-storage/company/documents/metadata?...` (`types` as repeated keys).
pub fn list_request(base: &BaseUrl, query: &ListDocumentsQuery) -> Result<HttpRequest, Error> {
    let q = query;
    let filters = [
        ("unitId", &q.unit_id),
        ("propertyId", &q.property_id),
        ("propertyGroupId", &q.property_group_id),
        ("candidateId", &q.candidate_id),
        ("tenantId", &q.tenant_id),
    ];
    let mut qs = QueryString::default();
    for (name, value) in filters {
        check_non_empty(&format!("query.{name}"), value.as_deref())?;
        qs.push_opt(name, value.as_deref());
    }
    for t in q.types.iter().flatten() {
        qs.push("types", t.as_str());
    }
    qs.push_opt("title", q.title.as_deref());
    qs.push_opt("skip", q.skip);
    qs.push_opt("take", q.take);
    Ok(HttpRequest::to_query(Operation::ListDocuments, base, &qs))
}

/// Checks a list answer's bytes (the array at `key`: empty, or the wrapping key), its records'
/// strings checked and never copied; returns how many records it holds.
pub fn check_list(status: u16, key: &str, body: &[u8]) -> Result<usize, Error> {
    check::<Checked<DocumentRecord<Unread>>>(Operation::ListDocuments.phrase(), status, key, body)
        .map(|list| list.len)
}

/// Checks a record answer's bytes ([`Operation::GetDocument`], [`Operation::UploadDocument`]).
pub fn check_record(operation: &'static str, status: u16, body: &[u8]) -> Result<(), Error> {
    check::<DocumentRecord<Unread>>(operation, status, "", body).map(drop)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::HttpMethod;
    use crate::error::ApiErrorKind;
    use crate::model::documents::{DocumentType, ImageFormat};
    use serde_json::{json, Value};

    fn base() -> BaseUrl {
        BaseUrl::normalised("http://127.0.0.1:8787")
    }

    fn upload(path: &str) -> UploadFields {
        UploadFields {
            resource_path: path.into(),
            ..UploadFields::default()
        }
    }

    fn form(r: &HttpRequest) -> Vec<(&'static str, Value)> {
        let RequestBody::Form(fields) = &r.body else {
            panic!("expected a form")
        };
        fields
            .iter()
            .map(|(k, v)| match v {
                FormValue::Text(t) => (*k, json!(t)),
                FormValue::Json(j) => (*k, json!({ "json": serde_json::to_value(j).unwrap() })),
            })
            .collect()
    }

    #[test]
    fn upload_request_is_exact() {
        let input = UploadFields {
            resource_path: "tenants/t-1".into(),
            metadata: Some(DocumentMetadata {
                document_type: Some(DocumentType::PreMoveIn),
                tenant_id: Some("t-1".into()),
                ..DocumentMetadata::default()
            }),
            name: Some("Protocol \"1\".pdf".into()),
            format: Some(ImageFormat::Png.as_str().to_owned()),
        };
        let r = upload_request(&base(), &input).unwrap();
        assert_eq!(r.method, HttpMethod::Post);
        assert_eq!(
            r.url,
            "http://127.0.0.1:8787/api/file-storage/company/documents"
        );
        assert_eq!(r.spec.resend, crate::error::Resend::NotIdempotent);
        assert_eq!(
            form(&r),
            vec![
                ("resourcePath", json!("tenants/t-1")),
                (
                    "metadata",
                    json!({"json": {"type": "PRE-MOVE_IN", "tenantId": "t-1"}})
                ),
                ("name", json!("Protocol \"1\".pdf")),
                ("format", json!("PNG")),
            ]
        );
        let r = upload_request(&base(), &upload("/protocols/9")).unwrap();
        assert_eq!(
            form(&r),
            vec![
                ("resourcePath", json!("/protocols/9")),
                ("metadata", json!({"json": {}}))
            ]
        );
    }

    #[test]
    fn upload_input_is_validated() {
        for (input, field) in [
            (upload(""), "input.resourcePath"),
            (upload("/"), "input.resourcePath"),
            (upload("tenants/../secrets"), "input.resourcePath"),
            (upload("tenants/a\nb"), "input.resourcePath"),
            (
                UploadFields {
                    name: Some(String::new()),
                    ..upload("units/1")
                },
                "input.name",
            ),
            (
                UploadFields {
                    metadata: Some(DocumentMetadata {
                        unit_id: Some(String::new()),
                        ..DocumentMetadata::default()
                    }),
                    ..upload("units/1")
                },
                "input.metadata.unitId",
            ),
        ] {
            let e = upload_request(&base(), &input).unwrap_err();
            assert_eq!(e.kind(), ApiErrorKind::InvalidInput);
            assert!(
                e.to_string().starts_with(&format!("invalid {field}:")),
                "{e}"
            );
        }
        for bad in [json!({"type": "PRE_MOVE_IN"}), json!({"unitId": 5})] {
            assert!(
                serde_json::from_value::<DocumentMetadata>(bad.clone()).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn list_request_is_exact() {
        let q: ListDocumentsQuery = serde_json::from_value(json!({
            "propertyId": "p 1",
            "types": ["CONTRACT", "PRE-MOVE_IN"],
            "title": "Lease & co",
            "skip": 0,
            "take": 50
        }))
        .unwrap();
        let r = list_request(&base(), &q).unwrap();
        assert_eq!(
            r.url,
            "http://127.0.0.1:8787/api/file-storage/company/documents/metadata?propertyId=p%201&types=CONTRACT&types=PRE-MOVE_IN&title=Lease%20%26%20co&skip=0&take=50"
        );
        assert_eq!(
            (r.method, r.spec.resend),
            (HttpMethod::Get, crate::error::Resend::Idempotent)
        );
        let r = list_request(&base(), &ListDocumentsQuery::default()).unwrap();
        assert_eq!(
            r.url,
            "http://127.0.0.1:8787/api/file-storage/company/documents/metadata"
        );
        assert!(
            serde_json::from_value::<ListDocumentsQuery>(json!({"types": ["INVOICE"]})).is_err()
        );
        let empty = ListDocumentsQuery {
            tenant_id: Some(String::new()),
            ..ListDocumentsQuery::default()
        };
        assert!(list_request(&base(), &empty)
            .unwrap_err()
            .to_string()
            .contains("query.tenantId"));
    }

    /// A JSON value's bytes, as an answer carries them.
    fn bytes(value: &Value) -> Vec<u8> {
        serde_json::to_vec(value).unwrap()
    }

    #[test]
    fn checks_records_tolerantly() {
        let rec = json!({"id":"d1","resourcePath":"acme/c/tenants/t/d1","title":"a.pdf","companyId":"c",
            "type":"BRAND_NEW_TYPE","tenantId":null,"unitId":null,"propertyId":"p","propertyGroupId":null,
            "size":12,"mimeType":"application/pdf","whatever":{"deep":[1,2]}});
        assert_eq!(
            check_record(Operation::UploadDocument.phrase(), 201, &bytes(&rec)),
            Ok(())
        );
        // The record's strings read as text by the same check: an unknown type is kept as sent.
        let r: DocumentRecord<crate::model::Text> =
            super::super::check::check(Operation::UploadDocument.phrase(), 201, "", &bytes(&rec))
                .unwrap();
        assert_eq!(r.document_type, Some("BRAND_NEW_TYPE".into()));
        let wrapped = json!({ "documents": [rec] });
        assert_eq!(check_list(200, "documents", &bytes(&wrapped)).unwrap(), 1);
        for bad in [
            json!({"title":"no id"}),
            json!({"id":"d","size":"big"}),
            json!("text"),
            json!({"id":"d","propertyId":{}}),
        ] {
            let e = check_record(Operation::GetDocument.phrase(), 200, &bytes(&bad)).unwrap_err();
            assert_eq!(e.kind(), ApiErrorKind::Decode, "{bad}");
        }
        let wrapped = json!({ "items": [rec, {"id": 1}] });
        let e = check_list(200, "items", &bytes(&wrapped)).unwrap_err();
        assert!(e.to_string().contains("at items[1].id"), "{e}");
    }
}
