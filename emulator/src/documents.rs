//! Document endpoints under `/api/file-storage/company/documents`.

use crate::credentials::Token;
use crate::errors::{ApiError, ApiResult};
use crate::model::{Document, NewDocument, DOCUMENT_TYPES};
use crate::state::AppState;
use axum::body::{Body, Bytes};
use axum::extract::multipart::{Field, MultipartError, MultipartRejection};
use axum::extract::rejection::PathRejection;
use axum::extract::{Extension, Multipart, Path, RawQuery, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{on, MethodFilter, MethodRouter};
use estatekit_vocab::operations::Operation;
use serde_json::{Map, Value};

/// Largest accepted image width/height for `format` conversion.
pub const MAX_IMAGE_SIDE: u32 = 16_384;

/// Longest accepted id.
pub const MAX_ID_LEN: usize = 256;

/// Validates a path id (never a traversal or control characters).
pub fn check_id(id: Result<Path<String>, PathRejection>, what: &str) -> ApiResult<String> {
    let Path(id) =
        id.map_err(|e| ApiError::bad_request(format!("invalid `{what}`: {}", e.body_text())))?;
    if id.is_empty()
        || id.len() > MAX_ID_LEN
        || id.contains('/')
        || id.contains('\\')
        || id.contains("..")
        || id.chars().any(char::is_control)
    {
        return Err(ApiError::bad_request(format!(
            "invalid `{what}`: must be 1-{MAX_ID_LEN} characters without `/`, `\\`, `..` or control characters"
        )));
    }
    Ok(id)
}

fn multipart_err(e: MultipartError) -> ApiError {
    let status = e.status();
    if status == StatusCode::PAYLOAD_TOO_LARGE {
        ApiError::new(status, format!("upload too large: {}", e.body_text()))
    } else {
        ApiError::bad_request(format!("malformed multipart body: {}", e.body_text()))
    }
}

async fn text_field(field: Field<'_>, name: &str) -> ApiResult<String> {
    let bytes = field.bytes().await.map_err(multipart_err)?;
    String::from_utf8(bytes.to_vec())
        .map_err(|_| ApiError::bad_request(format!("form field `{name}` is not valid UTF-8")))
}

struct Upload {
    file: Option<(Bytes, Option<String>, Option<String>)>,
    resource_path: Option<String>,
    metadata: Option<String>,
    name: Option<String>,
    format: Option<String>,
}

async fn read_upload(mut mp: Multipart) -> ApiResult<Upload> {
    let mut u = Upload {
        file: None,
        resource_path: None,
        metadata: None,
        name: None,
        format: None,
    };
    while let Some(field) = mp.next_field().await.map_err(multipart_err)? {
        let fname = field.name().unwrap_or("").to_string();
        match fname.as_str() {
            "file" => {
                let file_name = field.file_name().map(str::to_string);
                let ct = field.content_type().map(str::to_string);
                let bytes = field.bytes().await.map_err(multipart_err)?;
                u.file = Some((bytes, file_name, ct));
            }
            "resourcePath" => u.resource_path = Some(text_field(field, "resourcePath").await?),
            "metadata" => u.metadata = Some(text_field(field, "metadata").await?),
            "name" => u.name = Some(text_field(field, "name").await?),
            "format" => u.format = Some(text_field(field, "format").await?),
            _ => {
                // Unknown fields are read and ignored.
                field.bytes().await.map_err(multipart_err)?;
            }
        }
    }
    Ok(u)
}

/// Normalizes a given resource path (trim slashes, refuse `..`).
pub fn clean_resource_path(p: &str) -> ApiResult<String> {
    let trimmed = p.trim().trim_matches('/');
    if trimmed.is_empty() {
        return Err(ApiError::bad_request("`resourcePath` must not be empty"));
    }
    if trimmed.chars().any(char::is_control) || trimmed.contains('\\') {
        return Err(ApiError::bad_request(
            "`resourcePath` must not contain control characters or `\\`",
        ));
    }
    if trimmed.split('/').any(|s| s == ".." || s == ".") {
        return Err(ApiError::bad_request(
            "`resourcePath` must not contain `.` or `..` segments",
        ));
    }
    Ok(trimmed.to_string())
}

fn link(meta: &Map<String, Value>, key: &str) -> ApiResult<Option<String>> {
    match meta.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.is_empty() => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(Value::Number(n)) => Ok(Some(n.to_string())),
        Some(_) => Err(ApiError::bad_request(format!(
            "`metadata.{key}` must be a string"
        ))),
    }
}

fn doc_type(meta: &Map<String, Value>) -> ApiResult<String> {
    match meta.get("type") {
        None | Some(Value::Null) => Ok("DOCUMENT".into()),
        Some(Value::String(s)) if DOCUMENT_TYPES.contains(&s.as_str()) => Ok(s.clone()),
        Some(v) => Err(ApiError::bad_request(format!(
            "`metadata.type` must be one of {}; got {v}",
            DOCUMENT_TYPES.join(", ")
        ))),
    }
}

fn mime_from(file_name: Option<&str>, ct: Option<&str>) -> String {
    match ct {
        Some(c) if !c.is_empty() && c != "application/octet-stream" => c.to_string(),
        _ => {
            let m = crate::util::mime_for(file_name.unwrap_or(""));
            m.split(';').next().unwrap_or(m).to_string()
        }
    }
}

fn convert(bytes: &[u8], fmt: image::ImageFormat) -> Result<Vec<u8>, String> {
    let mut reader = image::ImageReader::new(std::io::Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| e.to_string())?;
    if reader.format().is_none() {
        return Err("unrecognised image format".into());
    }
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_IMAGE_SIDE);
    limits.max_image_height = Some(MAX_IMAGE_SIDE);
    limits.max_alloc = Some(256 * 1024 * 1024);
    reader.limits(limits);
    let img = reader.decode().map_err(|e| e.to_string())?;
    let mut out = std::io::Cursor::new(Vec::new());
    let res = if fmt == image::ImageFormat::Jpeg {
        image::DynamicImage::ImageRgb8(img.to_rgb8()).write_to(&mut out, fmt)
    } else {
        img.write_to(&mut out, fmt)
    };
    res.map_err(|e| e.to_string())?;
    Ok(out.into_inner())
}

/// `POST /api/file-storage/company/documents` (multipart).
pub async fn upload(
    State(state): State<AppState>,
    Extension(token): Extension<Token>,
    mp: Result<Multipart, MultipartRejection>,
) -> ApiResult<Response> {
    let mp = mp.map_err(|e| {
        ApiError::bad_request(format!(
            "expected a multipart/form-data body: {}",
            e.body_text()
        ))
    })?;
    let u = read_upload(mp).await?;
    let (mut bytes, file_name, ct) = u
        .file
        .ok_or_else(|| ApiError::bad_request("missing required form field `file`"))?;
    let rp = u
        .resource_path
        .ok_or_else(|| ApiError::bad_request("missing required form field `resourcePath`"))?;
    let rp = clean_resource_path(&rp)?;
    let meta_text = u
        .metadata
        .ok_or_else(|| ApiError::bad_request("missing required form field `metadata`"))?;
    let meta: Value = if meta_text.trim().is_empty() {
        Value::Object(Map::new())
    } else {
        serde_json::from_str(&meta_text)
            .map_err(|e| ApiError::bad_request(format!("`metadata` is not valid JSON: {e}")))?
    };
    let meta = match meta {
        Value::Object(m) => m,
        Value::Null => Map::new(),
        _ => return Err(ApiError::bad_request("`metadata` must be a JSON object")),
    };
    let doc_type = doc_type(&meta)?;
    let tenant_id = link(&meta, "tenantId")?;
    let unit_id = link(&meta, "unitId")?;
    let property_id = link(&meta, "propertyId")?;
    let property_group_id = link(&meta, "propertyGroupId")?;
    let candidate_id = link(&meta, "candidateId")?;
    let mut mime = mime_from(file_name.as_deref(), ct.as_deref());
    let format = u
        .format
        .map(|f| f.trim().to_ascii_uppercase())
        .filter(|f| !f.is_empty());
    if let Some(f) = format {
        let (fmt, m) = match f.as_str() {
            "JPEG" | "JPG" => (image::ImageFormat::Jpeg, "image/jpeg"),
            "PNG" => (image::ImageFormat::Png, "image/png"),
            _ => {
                return Err(ApiError::bad_request(format!(
                    "`format` must be JPEG or PNG, got `{f}`"
                )))
            }
        };
        let input = bytes.clone();
        let converted = convert(&input, fmt).map_err(|e| {
            ApiError::bad_request(format!(
                "`format` needs an image file, but `file` could not be decoded as one: {e}"
            ))
        })?;
        bytes = Bytes::from(converted);
        mime = m.to_string();
    }
    let title = u
        .name
        .filter(|n| !n.trim().is_empty())
        .or(file_name.filter(|n| !n.is_empty()))
        .unwrap_or_else(|| "file".to_string());
    let now = state.now_iso();
    let new = NewDocument {
        title,
        doc_type,
        tenant_id,
        unit_id,
        property_id,
        property_group_id,
        candidate_id,
        mime_type: mime,
        bytes,
    };
    let doc = state
        .with_account(&token.0, |a| a.add_document(&rp, new, &now))
        .ok_or_else(|| ApiError::unauthorized("unknown access token"))?;
    Ok((StatusCode::CREATED, axum::Json(doc)).into_response())
}

/// Parsed list filters.
#[derive(Debug, Default)]
pub struct ListQuery {
    unit_id: Option<String>,
    property_id: Option<String>,
    property_group_id: Option<String>,
    candidate_id: Option<String>,
    tenant_id: Option<String>,
    types: Vec<String>,
    title: Option<String>,
    skip: usize,
    take: Option<usize>,
}

fn non_neg(key: &str, v: &str) -> ApiResult<usize> {
    v.trim().parse::<usize>().map_err(|_| {
        ApiError::bad_request(format!(
            "query parameter `{key}` must be a non-negative integer, got `{v}`"
        ))
    })
}

/// Parses the raw query string of the list endpoint.
pub fn parse_list_query(raw: Option<&str>) -> ApiResult<ListQuery> {
    let mut q = ListQuery::default();
    for (k, v) in form_urlencoded::parse(raw.unwrap_or("").as_bytes()) {
        let v = v.into_owned();
        let set = |slot: &mut Option<String>| {
            *slot = (!v.is_empty()).then(|| v.clone());
        };
        match k.as_ref() {
            "unitId" => set(&mut q.unit_id),
            "propertyId" => set(&mut q.property_id),
            "propertyGroupId" => set(&mut q.property_group_id),
            "candidateId" => set(&mut q.candidate_id),
            "tenantId" => set(&mut q.tenant_id),
            "title" => set(&mut q.title),
            "types" | "types[]" => {
                for t in v.split(',').map(str::trim).filter(|t| !t.is_empty()) {
                    if !DOCUMENT_TYPES.contains(&t) {
                        return Err(ApiError::bad_request(format!(
                            "query parameter `types`: unknown document type `{t}` (one of {})",
                            DOCUMENT_TYPES.join(", ")
                        )));
                    }
                    q.types.push(t.to_string());
                }
            }
            "skip" if !v.is_empty() => q.skip = non_neg("skip", &v)?,
            "take" if !v.is_empty() => q.take = Some(non_neg("take", &v)?),
            _ => {}
        }
    }
    Ok(q)
}

fn eq(filter: &Option<String>, value: &Option<String>) -> bool {
    filter.as_ref().is_none_or(|f| value.as_ref() == Some(f))
}

/// `GET /api/file-storage/company/documents/metadata`.
pub async fn list(
    State(state): State<AppState>,
    Extension(token): Extension<Token>,
    RawQuery(raw): RawQuery,
) -> ApiResult<Response> {
    let q = parse_list_query(raw.as_deref())?;
    let title = q.title.as_ref().map(|t| t.to_lowercase());
    let body = state
        .with_account(&token.0, |a| {
            let hits: Vec<&Document> = a
                .documents
                .values()
                .filter(|d| {
                    eq(&q.unit_id, &d.unit_id)
                        && eq(&q.property_id, &d.property_id)
                        && eq(&q.property_group_id, &d.property_group_id)
                        && eq(&q.candidate_id, &d.candidate_id)
                        && eq(&q.tenant_id, &d.tenant_id)
                        && (q.types.is_empty() || q.types.contains(&d.doc_type))
                        && title
                            .as_ref()
                            .is_none_or(|t| d.title.to_lowercase().contains(t.as_str()))
                })
                .skip(q.skip)
                .take(q.take.unwrap_or(usize::MAX))
                .collect();
            serde_json::to_vec(&hits)
        })
        .ok_or_else(|| ApiError::unauthorized("unknown access token"))?
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    let mut r = Response::new(Body::from(body));
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    Ok(r)
}

fn find(state: &AppState, token: &Token, id: &str) -> ApiResult<Document> {
    state
        .with_account(&token.0, |a| a.document(id).cloned())
        .flatten()
        .ok_or_else(|| ApiError::not_found(format!("document `{id}` not found")))
}

/// `GET /api/file-storage/company/documents/{id}/metadata`.
pub async fn get_metadata(
    State(state): State<AppState>,
    Extension(token): Extension<Token>,
    id: Result<Path<String>, PathRejection>,
) -> ApiResult<Response> {
    let id = check_id(id, "documentId")?;
    Ok(axum::Json(find(&state, &token, &id)?).into_response())
}

/// `GET /api/file-storage/company/documents/{id}`: the stored file content (emulator extension).
pub async fn get_content(
    State(state): State<AppState>,
    Extension(token): Extension<Token>,
    id: Result<Path<String>, PathRejection>,
) -> ApiResult<Response> {
    let id = check_id(id, "documentId")?;
    let d = find(&state, &token, &id)?;
    let mut r = Response::new(Body::from(d.bytes));
    if let Ok(v) = HeaderValue::from_str(&d.mime_type) {
        r.headers_mut().insert(header::CONTENT_TYPE, v);
    }
    Ok(r)
}

/// `DELETE /api/file-storage/company/documents/{id}`.
pub async fn delete(
    State(state): State<AppState>,
    Extension(token): Extension<Token>,
    id: Result<Path<String>, PathRejection>,
) -> ApiResult<Response> {
    let id = check_id(id, "documentId")?;
    let removed = state
        .with_account(&token.0, |a| a.remove_document(&id))
        .unwrap_or(false);
    if removed {
        Ok(StatusCode::NO_CONTENT.into_response())
    } else {
        Err(ApiError::not_found(format!("document `{id}` not found")))
    }
}

/// The handler of each operation of the table this module answers (emulator/src/routes.rs routes
/// it at its row's route, `filter` being the route's method).
pub fn answering(op: Operation, filter: MethodFilter) -> Option<MethodRouter<AppState>> {
    Some(match op {
        Operation::UploadDocument => on(filter, upload),
        Operation::ListDocuments => on(filter, list),
        Operation::GetDocument => on(filter, get_metadata),
        Operation::DeleteDocument => on(filter, delete),
        _ => return None,
    })
}
