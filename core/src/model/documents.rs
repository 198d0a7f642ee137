//! Documents (section 2.4, endpoints 4.2-4.5): document types, image formats, upload and list
//! inputs, and the stored record.

use super::{fields_of, BlobHandle, Callback, Input, Signal, Text};
use crate::objects_only;
use serde::{Deserialize, Serialize};
#[cfg(feature = "js")]
use tsify::Tsify;

/// The document types and image formats: written once, in estatekit-vocab.
pub use estatekit_vocab::{DocumentType, ImageFormat};

/// Metadata sent with an upload: links the document to other objects.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(Tsify))]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DocumentMetadata {
    /// Type of document; the service's default is `DOCUMENT`.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "js", tsify(optional))]
    pub document_type: Option<DocumentType>,
    /// Links the document to a tenant.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "js", tsify(optional))]
    pub tenant_id: Option<String>,
    /// Links the document to a unit.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "js", tsify(optional))]
    pub unit_id: Option<String>,
    /// Links the document to a property.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "js", tsify(optional))]
    pub property_id: Option<String>,
    /// Links the document to a property group.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "js", tsify(optional))]
    pub property_group_id: Option<String>,
}

/// Input of `uploadDocument`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct UploadDocumentInput {
    /// The content; sent by the browser, never copied into WebAssembly memory.
    #[cfg_attr(feature = "js", tsify(type = "Blob"))]
    pub file: BlobHandle,
    /// Virtual folder, e.g. `tenants/<tenant_id>` or `properties/<property_id>`.
    pub resource_path: String,
    /// Links the document to other objects.
    #[cfg_attr(feature = "js", tsify(optional))]
    pub metadata: Option<DocumentMetadata>,
    /// Forces another file name (it comes back as `title`).
    #[cfg_attr(feature = "js", tsify(optional))]
    pub name: Option<String>,
    /// Converts an image to this format.
    #[cfg_attr(feature = "js", tsify(optional))]
    pub format: Option<ImageFormat>,
}

impl Input for UploadDocumentInput {
    fn nested(key: &str) -> Option<&'static [&'static str]> {
        (key == "metadata").then(fields_of::<DocumentMetadata>)
    }
}

/// Bytes of an upload sent so far.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(Tsify))]
pub struct UploadProgress {
    /// Bytes sent.
    pub loaded: f64,
    /// Bytes in all.
    pub total: f64,
}

/// Options of `uploadDocument`. Uploads have no timeout unless `timeoutMs` is given.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct UploadOptions {
    /// Aborts the upload; it then rejects with kind `aborted`.
    #[cfg_attr(feature = "js", tsify(optional, type = "AbortSignal"))]
    pub signal: Option<Signal>,
    /// Timeout of this upload in milliseconds (default: none).
    #[cfg_attr(feature = "js", tsify(optional))]
    pub timeout_ms: Option<u32>,
    /// Called as bytes go out; the last call has `loaded === total`.
    #[cfg_attr(
        feature = "js",
        tsify(optional, type = "(progress: UploadProgress) => void")
    )]
    pub on_progress: Option<Callback>,
    /// Told about this call's events, besides the client's `onEvent`.
    #[cfg_attr(feature = "js", tsify(optional, type = "(event: ClientEvent) => void"))]
    pub on_event: Option<Callback>,
}

impl Input for UploadOptions {}

/// Filters of `listDocuments`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(Tsify))]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ListDocumentsQuery {
    /// Only documents linked to this unit.
    #[cfg_attr(feature = "js", tsify(optional))]
    pub unit_id: Option<String>,
    /// Only documents linked to this property.
    #[cfg_attr(feature = "js", tsify(optional))]
    pub property_id: Option<String>,
    /// Only documents linked to this property group.
    #[cfg_attr(feature = "js", tsify(optional))]
    pub property_group_id: Option<String>,
    /// Only documents linked to this candidate.
    #[cfg_attr(feature = "js", tsify(optional))]
    pub candidate_id: Option<String>,
    /// Only documents linked to this tenant.
    #[cfg_attr(feature = "js", tsify(optional))]
    pub tenant_id: Option<String>,
    /// Only documents of these types.
    #[cfg_attr(feature = "js", tsify(optional, type = "readonly DocumentType[]"))]
    pub types: Option<Vec<DocumentType>>,
    /// Title filter.
    #[cfg_attr(feature = "js", tsify(optional))]
    pub title: Option<String>,
    /// Number of records to skip.
    #[cfg_attr(feature = "js", tsify(optional))]
    pub skip: Option<u32>,
    /// Number of records to return.
    #[cfg_attr(feature = "js", tsify(optional))]
    pub take: Option<u32>,
}

impl Input for ListDocumentsQuery {}

/// A field of an answer that is declared to TypeScript but not checked (any value passes, as
/// for a field not declared): the interface leaves it open, and a check would cost the browser
/// module bytes for nothing the client reads.
pub type Unchecked = serde::de::IgnoredAny;

/// A stored document's metadata, as the service returns it. Only `id` is required; the
/// documented fields are checked for type (`candidateId`, `mimeType`, `createdAt` and
/// `updatedAt`, which the interface leaves open, are declared, not checked), and every other
/// field the service sends is kept in the object the caller receives.
// `S` is how its strings are read (`Unread` where the client only checks them); its
// `type_params = ""` keep it out of the TypeScript declaration, which has strings.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "js", derive(Tsify))]
#[cfg_attr(feature = "js", tsify(missing_as_null))]
#[serde(rename_all = "camelCase", remote = "Self")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "DocumentRecord"))]
pub struct DocumentRecord<S = Text> {
    /// Document id.
    #[cfg_attr(feature = "js", tsify(type = "string", type_params = ""))]
    pub id: S,
    /// `<subdomain>/<companyId>/<given resourcePath>/<id>`.
    #[serde(default)]
    #[cfg_attr(
        feature = "js",
        tsify(optional, type = "string | null", type_params = "")
    )]
    pub resource_path: Option<S>,
    /// File name (the upload's `name`).
    #[serde(default)]
    #[cfg_attr(
        feature = "js",
        tsify(optional, type = "string | null", type_params = "")
    )]
    pub title: Option<S>,
    /// Owning company.
    #[serde(default)]
    #[cfg_attr(
        feature = "js",
        tsify(optional, type = "string | null", type_params = "")
    )]
    pub company_id: Option<S>,
    /// A `DocumentType`; values added later by the service are passed through.
    #[serde(default, rename = "type")]
    #[cfg_attr(
        feature = "js",
        tsify(
            optional,
            type = "DocumentType | (string & {}) | null",
            type_params = ""
        )
    )]
    pub document_type: Option<S>,
    /// Linked tenant.
    #[serde(default)]
    #[cfg_attr(
        feature = "js",
        tsify(optional, type = "string | null", type_params = "")
    )]
    pub tenant_id: Option<S>,
    /// Linked unit.
    #[serde(default)]
    #[cfg_attr(
        feature = "js",
        tsify(optional, type = "string | null", type_params = "")
    )]
    pub unit_id: Option<S>,
    /// Linked property.
    #[serde(default)]
    #[cfg_attr(
        feature = "js",
        tsify(optional, type = "string | null", type_params = "")
    )]
    pub property_id: Option<S>,
    /// Linked property group.
    #[serde(default)]
    #[cfg_attr(
        feature = "js",
        tsify(optional, type = "string | null", type_params = "")
    )]
    pub property_group_id: Option<S>,
    /// Linked candidate.
    #[serde(default)]
    #[cfg_attr(
        feature = "js",
        tsify(optional, type = "string | null", type_params = "")
    )]
    #[cfg_attr(feature = "schema", schemars(with = "Option<serde_json::Value>"))]
    pub candidate_id: Option<Unchecked>,
    /// Size in bytes.
    #[serde(default)]
    pub size: Option<f64>,
    /// The file's media type (e.g. `application/pdf`; after a `format` conversion, the new one).
    #[serde(default)]
    #[cfg_attr(
        feature = "js",
        tsify(optional, type = "string | null", type_params = "")
    )]
    #[cfg_attr(feature = "schema", schemars(with = "Option<serde_json::Value>"))]
    pub mime_type: Option<Unchecked>,
    /// When it was uploaded (ISO 8601).
    #[serde(default)]
    #[cfg_attr(
        feature = "js",
        tsify(optional, type = "string | null", type_params = "")
    )]
    #[cfg_attr(feature = "schema", schemars(with = "Option<serde_json::Value>"))]
    pub created_at: Option<Unchecked>,
    /// When its record last changed (ISO 8601).
    #[serde(default)]
    #[cfg_attr(
        feature = "js",
        tsify(optional, type = "string | null", type_params = "")
    )]
    #[cfg_attr(feature = "schema", schemars(with = "Option<serde_json::Value>"))]
    pub updated_at: Option<Unchecked>,
}

objects_only!(DocumentRecord<S>);
