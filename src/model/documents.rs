//! Documents (section 2.4, endpoints 4.2-4.5): document types, image formats, upload and list
//! inputs, and the stored record.

use crate::api::input::{FromInput, InputValue};
use crate::api::schema::{Field, Ty};
use crate::error::Error;

/// Every value of DOCUMENT_TYPES. `PRE-MOVE_IN` contains a hyphen: it is a literal value.
pub const DOCUMENT_TYPES: [&str; 7] = [
    "DOCUMENT",
    "RENTAL_APPLICATION",
    "CONTRACT",
    "MOVE_IN",
    "MOVE_OUT",
    "PRE-MOVE_IN",
    "SELLING",
];

/// Formats an uploaded image can be converted to.
pub const IMAGE_FORMATS: [&str; 2] = ["JPEG", "PNG"];

/// The metadata object sent (as a JSON string) with an upload.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DocumentMetadata {
    /// One of [`DOCUMENT_TYPES`]; the service defaults to `DOCUMENT`.
    pub document_type: Option<String>,
    /// Links the document to a tenant.
    pub tenant_id: Option<String>,
    /// Links the document to a unit.
    pub unit_id: Option<String>,
    /// Links the document to a property.
    pub property_id: Option<String>,
    /// Links the document to a property group.
    pub property_group_id: Option<String>,
}

/// `uploadDocument` input without the file (the browser layer takes the `Blob` itself, so
/// its bytes never enter WebAssembly memory).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UploadFields {
    /// Virtual folder, e.g. `tenants/<tenant_id>`.
    pub resource_path: String,
    /// Metadata linking the document to other objects.
    pub metadata: Option<DocumentMetadata>,
    /// Forces another file name (comes back as `title`).
    pub name: Option<String>,
    /// Converts an image to `JPEG` or `PNG`.
    pub format: Option<String>,
}

impl FromInput for UploadFields {
    fn from_input(value: &InputValue, path: &str) -> Result<Self, Error> {
        let f = value.object(
            path,
            &["file", "resourcePath", "metadata", "name", "format"],
        )?;
        let metadata = match f.object(
            "metadata",
            &[
                "type",
                "tenantId",
                "unitId",
                "propertyId",
                "propertyGroupId",
            ],
        )? {
            Some(m) => Some(DocumentMetadata {
                document_type: m.string("type")?,
                tenant_id: m.string("tenantId")?,
                unit_id: m.string("unitId")?,
                property_id: m.string("propertyId")?,
                property_group_id: m.string("propertyGroupId")?,
            }),
            None => None,
        };
        Ok(UploadFields {
            resource_path: f.required_string("resourcePath")?,
            metadata,
            name: f.string("name")?,
            format: f.string("format")?,
        })
    }
}

/// The options of `uploadDocument`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UploadOptions {
    /// Timeout of this upload in milliseconds (default: none).
    pub timeout_ms: Option<u32>,
}

impl FromInput for UploadOptions {
    fn from_input(value: &InputValue, path: &str) -> Result<Self, Error> {
        let f = value.object(path, &["timeoutMs", "signal", "onProgress"])?;
        Ok(UploadOptions {
            timeout_ms: f.count("timeoutMs")?,
        })
    }
}

/// Filters of `listDocuments`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ListDocumentsQuery {
    /// Only documents linked to this unit.
    pub unit_id: Option<String>,
    /// Only documents linked to this property.
    pub property_id: Option<String>,
    /// Only documents linked to this property group.
    pub property_group_id: Option<String>,
    /// Only documents linked to this candidate.
    pub candidate_id: Option<String>,
    /// Only documents linked to this tenant.
    pub tenant_id: Option<String>,
    /// Only documents of these types.
    pub types: Option<Vec<String>>,
    /// Title filter.
    pub title: Option<String>,
    /// Number of records to skip.
    pub skip: Option<u32>,
    /// Number of records to return.
    pub take: Option<u32>,
}

impl FromInput for ListDocumentsQuery {
    fn from_input(value: &InputValue, path: &str) -> Result<Self, Error> {
        let f = value.object(
            path,
            &[
                "unitId",
                "propertyId",
                "propertyGroupId",
                "candidateId",
                "tenantId",
                "types",
                "title",
                "skip",
                "take",
            ],
        )?;
        Ok(ListDocumentsQuery {
            unit_id: f.string("unitId")?,
            property_id: f.string("propertyId")?,
            property_group_id: f.string("propertyGroupId")?,
            candidate_id: f.string("candidateId")?,
            tenant_id: f.string("tenantId")?,
            types: f.strings("types")?,
            title: f.string("title")?,
            skip: f.count("skip")?,
            take: f.count("take")?,
        })
    }
}

/// A stored document's metadata record. Only `id` is required; the documented fields are
/// checked for type and every other field passes through untouched.
pub static DOCUMENT_RECORD: Ty = Ty::Record(&[
    Field::required("id", Ty::String),
    Field::optional("resourcePath", Ty::String),
    Field::optional("title", Ty::String),
    Field::optional("companyId", Ty::String),
    Field::optional("type", Ty::String),
    Field::optional("tenantId", Ty::String),
    Field::optional("unitId", Ty::String),
    Field::optional("propertyId", Ty::String),
    Field::optional("propertyGroupId", Ty::String),
    Field::optional("size", Ty::Number),
]);

/// The list answer of `listDocuments`.
pub static DOCUMENT_LIST: Ty = Ty::List {
    item: &DOCUMENT_RECORD,
    nullable_items: false,
};
