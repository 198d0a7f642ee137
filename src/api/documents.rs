//! Documents (4.2-4.5): upload, list metadata, get one's metadata, delete.

use super::json::ObjectWriter;
use super::json_view::JsonView;
use super::response::{check_list, check_value, ListShape};
use super::url::{check_id, encode_component, QueryString};
use super::{check_non_empty, BaseUrl, HttpRequest, Method, RequestBody};
use crate::error::Error;
use crate::model::check_enum;
use crate::model::documents::{
    DocumentMetadata, ListDocumentsQuery, UploadFields, DOCUMENT_LIST, DOCUMENT_RECORD,
    DOCUMENT_TYPES, IMAGE_FORMATS,
};
use crate::text::{concat, decimal};

const PATH: &str = "/api/file-storage/company/documents";

/// Operation name of `uploadDocument`.
pub const UPLOAD: &str = "upload document";
/// Operation name of `listDocuments`.
pub const LIST: &str = "list documents";
/// Operation name of `getDocument`.
pub const GET: &str = "get document";
/// Operation name of `deleteDocument`.
pub const DELETE: &str = "delete document";

fn check_document_type(field: &str, value: &str) -> Result<(), Error> {
    check_enum(value, &DOCUMENT_TYPES, "document type").map_err(|r| Error::invalid(field, r))
}

/// Validates a resource path: non-empty, no `..` segment, no control characters.
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

/// The metadata JSON string sent with an upload (`{}` when none is given).
pub fn metadata_json(meta: &DocumentMetadata) -> Result<String, Error> {
    if let Some(t) = &meta.document_type {
        check_document_type("input.metadata.type", t)?;
    }
    check_non_empty("input.metadata.tenantId", meta.tenant_id.as_deref())?;
    check_non_empty("input.metadata.unitId", meta.unit_id.as_deref())?;
    check_non_empty("input.metadata.propertyId", meta.property_id.as_deref())?;
    check_non_empty(
        "input.metadata.propertyGroupId",
        meta.property_group_id.as_deref(),
    )?;
    let mut w = ObjectWriter::new();
    w.opt_string("type", meta.document_type.as_deref())
        .opt_string("tenantId", meta.tenant_id.as_deref())
        .opt_string("unitId", meta.unit_id.as_deref())
        .opt_string("propertyId", meta.property_id.as_deref())
        .opt_string("propertyGroupId", meta.property_group_id.as_deref());
    Ok(w.finish())
}

/// `POST /api/file-storage/company/documents` (multipart). The text fields are described
/// here; the browser layer appends the `file` part from the caller's `Blob`.
pub fn upload_request(base: &BaseUrl, input: &UploadFields) -> Result<HttpRequest, Error> {
    check_resource_path(&input.resource_path)?;
    check_non_empty("input.name", input.name.as_deref())?;
    if let Some(f) = &input.format {
        check_enum(f, &IMAGE_FORMATS, "image format")
            .map_err(|r| Error::invalid("input.format", r))?;
    }
    let metadata = metadata_json(&input.metadata.clone().unwrap_or_default())?;
    let mut fields = vec![
        ("resourcePath", input.resource_path.clone()),
        ("metadata", metadata),
    ];
    if let Some(n) = &input.name {
        fields.push(("name", n.clone()));
    }
    if let Some(f) = &input.format {
        fields.push(("format", f.clone()));
    }
    Ok(HttpRequest {
        operation: UPLOAD,
        method: Method::Post,
        url: base.join(PATH, &QueryString::default()),
        body: RequestBody::Form(fields),
        retry_safe: false,
    })
}

/// `GET /api/file-storage/company/documents/metadata?...` (`types` as repeated keys).
pub fn list_request(base: &BaseUrl, query: &ListDocumentsQuery) -> Result<HttpRequest, Error> {
    let q = query;
    for (field, value) in [
        ("query.unitId", &q.unit_id),
        ("query.propertyId", &q.property_id),
        ("query.propertyGroupId", &q.property_group_id),
        ("query.candidateId", &q.candidate_id),
        ("query.tenantId", &q.tenant_id),
    ] {
        check_non_empty(field, value.as_deref())?;
    }
    for t in q.types.iter().flatten() {
        check_document_type("query.types", t)?;
    }
    let mut qs = QueryString::default();
    qs.push_opt("unitId", q.unit_id.as_deref());
    qs.push_opt("propertyId", q.property_id.as_deref());
    qs.push_opt("propertyGroupId", q.property_group_id.as_deref());
    qs.push_opt("candidateId", q.candidate_id.as_deref());
    qs.push_opt("tenantId", q.tenant_id.as_deref());
    for t in q.types.iter().flatten() {
        qs.push("types", t);
    }
    qs.push_opt("title", q.title.as_deref());
    qs.push_opt("skip", q.skip.map(|n| decimal(n.into())).as_deref());
    qs.push_opt("take", q.take.map(|n| decimal(n.into())).as_deref());
    Ok(HttpRequest {
        operation: LIST,
        method: Method::Get,
        url: base.join(&concat(&[PATH, "/metadata"]), &qs),
        body: RequestBody::None,
        retry_safe: true,
    })
}

/// `GET /api/file-storage/company/documents/{id}/metadata`.
pub fn get_request(base: &BaseUrl, id: &str) -> Result<HttpRequest, Error> {
    check_id("documentId", id)?;
    Ok(HttpRequest {
        operation: GET,
        method: Method::Get,
        url: base.join(
            &concat(&[PATH, "/", &encode_component(id), "/metadata"]),
            &QueryString::default(),
        ),
        body: RequestBody::None,
        retry_safe: true,
    })
}

/// `DELETE /api/file-storage/company/documents/{id}`.
pub fn delete_request(base: &BaseUrl, id: &str) -> Result<HttpRequest, Error> {
    check_id("documentId", id)?;
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

/// Checks one record (upload and get answers).
pub fn decode_record<V: JsonView>(
    operation: &'static str,
    status: u16,
    body: &V,
) -> Result<(), Error> {
    check_value(operation, status, body, &DOCUMENT_RECORD, &[])
}

/// Checks a list answer (bare array or wrapped); returns where the array was and the array.
pub fn decode_list<V: JsonView>(status: u16, body: V) -> Result<(ListShape, V), Error> {
    check_list(LIST, status, body, &DOCUMENT_LIST)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::response::ListShape;
    use crate::error::ErrorKind;

    fn base() -> BaseUrl {
        BaseUrl::parse("http://127.0.0.1:8787").unwrap()
    }

    fn upload(path: &str) -> UploadFields {
        UploadFields {
            resource_path: path.into(),
            ..UploadFields::default()
        }
    }

    #[test]
    fn upload_request_is_exact() {
        let input = UploadFields {
            resource_path: "tenants/t-1".into(),
            metadata: Some(DocumentMetadata {
                document_type: Some("PRE-MOVE_IN".into()),
                tenant_id: Some("t-1".into()),
                ..DocumentMetadata::default()
            }),
            name: Some("Protocol \"1\".pdf".into()),
            format: Some("PNG".into()),
        };
        let r = upload_request(&base(), &input).unwrap();
        assert_eq!(r.method, Method::Post);
        assert_eq!(
            r.url,
            "http://127.0.0.1:8787/api/file-storage/company/documents"
        );
        assert!(!r.retry_safe);
        assert_eq!(
            r.body,
            RequestBody::Form(vec![
                ("resourcePath", "tenants/t-1".into()),
                (
                    "metadata",
                    r#"{"type":"PRE-MOVE_IN","tenantId":"t-1"}"#.into()
                ),
                ("name", "Protocol \"1\".pdf".into()),
                ("format", "PNG".into()),
            ])
        );
        let r = upload_request(&base(), &upload("/protocols/9")).unwrap();
        assert_eq!(
            r.body,
            RequestBody::Form(vec![
                ("resourcePath", "/protocols/9".into()),
                ("metadata", "{}".into())
            ])
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
                    format: Some("GIF".into()),
                    ..upload("units/1")
                },
                "input.format",
            ),
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
                        document_type: Some("PRE_MOVE_IN".into()),
                        ..DocumentMetadata::default()
                    }),
                    ..upload("units/1")
                },
                "input.metadata.type",
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
            assert_eq!(e.kind(), ErrorKind::InvalidInput);
            assert!(
                e.to_string().starts_with(&format!("invalid {field}:")),
                "{e}"
            );
        }
    }

    #[test]
    fn list_request_is_exact() {
        let q = ListDocumentsQuery {
            property_id: Some("p 1".into()),
            types: Some(vec!["CONTRACT".into(), "PRE-MOVE_IN".into()]),
            title: Some("Lease & co".into()),
            skip: Some(0),
            take: Some(50),
            ..ListDocumentsQuery::default()
        };
        let r = list_request(&base(), &q).unwrap();
        assert_eq!(
            r.url,
            "http://127.0.0.1:8787/api/file-storage/company/documents/metadata?propertyId=p%201&types=CONTRACT&types=PRE-MOVE_IN&title=Lease%20%26%20co&skip=0&take=50"
        );
        assert_eq!((r.method, r.retry_safe), (Method::Get, true));
        let r = list_request(&base(), &ListDocumentsQuery::default()).unwrap();
        assert_eq!(
            r.url,
            "http://127.0.0.1:8787/api/file-storage/company/documents/metadata"
        );
        let bad = ListDocumentsQuery {
            types: Some(vec!["INVOICE".into()]),
            ..ListDocumentsQuery::default()
        };
        assert!(list_request(&base(), &bad)
            .unwrap_err()
            .to_string()
            .contains("query.types"));
    }

    #[test]
    fn get_and_delete_encode_the_id() {
        let r = get_request(&base(), "../../webhooks").unwrap();
        assert_eq!(
            r.url,
            "http://127.0.0.1:8787/api/file-storage/company/documents/..%2F..%2Fwebhooks/metadata"
        );
        let r = delete_request(&base(), "a%2Fb").unwrap();
        assert_eq!(
            r.url,
            "http://127.0.0.1:8787/api/file-storage/company/documents/a%252Fb"
        );
        assert_eq!((r.method, r.retry_safe), (Method::Delete, true));
        assert!(get_request(&base(), "")
            .unwrap_err()
            .to_string()
            .contains("documentId"));
    }

    #[test]
    fn decodes_records_tolerantly() {
        let rec = r#"{"id":"d1","resourcePath":"acme/c/tenants/t/d1","title":"a.pdf","companyId":"c",
            "type":"BRAND_NEW_TYPE","tenantId":null,"unitId":null,"propertyId":"p","propertyGroupId":null,
            "size":12,"mimeType":"application/pdf","whatever":{"deep":[1,2]}}"#;
        let v: serde_json::Value = serde_json::from_str(rec).unwrap();
        assert_eq!(decode_record(UPLOAD, 201, &&v), Ok(()));
        let wrapped = serde_json::json!({ "documents": [v] });
        let (shape, list) = decode_list(200, &wrapped).unwrap();
        assert_eq!((shape, list.len()), (ListShape::Under("documents"), 1));
        for bad in [
            r#"{"title":"no id"}"#,
            r#"{"id":"d","size":"big"}"#,
            "[]",
            r#"{"id":"d","propertyId":{}}"#,
        ] {
            let v: serde_json::Value = serde_json::from_str(bad).unwrap();
            let e = decode_record(GET, 200, &&v).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::Decode, "{bad}");
        }
    }
}
