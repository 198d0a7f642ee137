//! Messages (sections 2.1-2.3, endpoint 4.1): the filter, query options and the checked
//! shape of `Message` / `MessageAttachment`.

use super::{NullableBool, NullableNumber, NullableObject, NullableString};
use serde::de::IgnoredAny;
use serde::Deserialize;

/// Values of the GraphQL enum `MESSAGE_SENT_BY` (responses may carry others; they pass through).
pub const MESSAGE_SENT_BY: [&str; 2] = ["ADMIN", "CANDIDATE"];

/// `Message` fields a caller may select with `options.fields` (`user` is selected through
/// `options.userFields`, because the fields of `User` are not documented).
pub const MESSAGE_FIELDS: [&str; 8] = [
    "id",
    "candidateId",
    "sentBy",
    "userId",
    "text",
    "replyToMessageId",
    "isRead",
    "attachments",
];

/// The five `MessageAttachment` fields, all selected whenever `attachments` is.
pub const ATTACHMENT_FIELDS: [&str; 5] = ["id", "name", "resourcePath", "type", "size"];

/// Sort directions accepted in `options.sort.direction`.
pub const SORT_DIRECTIONS: [&str; 2] = ["ASC", "DESC"];

/// Which conversation to read: at least one of the first three must be given.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MessageFilter {
    /// Messages of this candidate.
    pub candidate_id: Option<String>,
    /// Messages of this contact.
    pub contact_id: Option<String>,
    /// Messages about this listing.
    pub listing_id: Option<String>,
    /// Undocumented filter used by the vendor's examples; never enough on its own.
    pub external_contact_id: Option<String>,
}

/// `GraphPaging`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Paging {
    /// Number of messages to skip.
    pub skip: Option<u32>,
    /// Number of messages to return.
    pub take: Option<u32>,
}

/// `GraphSorting`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Sort {
    /// A `Message` field name, e.g. `id`.
    pub field_name: String,
    /// `ASC` or `DESC`.
    pub direction: Option<String>,
}

/// Second argument of `messages`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MessagesOptions {
    /// `Message` fields to select (default: every field but `user`).
    pub fields: Option<Vec<String>>,
    /// `User` fields to select; `user` is selected only when this is given.
    pub user_fields: Option<Vec<String>>,
    /// Paging.
    pub paging: Option<Paging>,
    /// Sorting.
    pub sort: Option<Sort>,
    /// Per-call timeout (read by the transport).
    pub timeout_ms: Option<u32>,
    /// `AbortSignal` (read by the browser layer).
    #[serde(default, rename = "signal")]
    pub _signal: Option<IgnoredAny>,
}

/// A `MessageAttachment`, type-checked.
#[derive(Debug, Deserialize)]
pub struct AttachmentCheck {
    #[serde(rename = "id", default)]
    _id: NullableString,
    #[serde(rename = "name", default)]
    _name: NullableString,
    #[serde(rename = "resourcePath", default)]
    _resource_path: NullableString,
    #[serde(rename = "type", default)]
    _attachment_type: NullableString,
    #[serde(rename = "size", default)]
    _size: NullableNumber,
}

/// A `Message`, type-checked (all fields nullable, unknown `sentBy` values accepted).
#[derive(Debug, Deserialize)]
pub struct MessageCheck {
    #[serde(rename = "id", default)]
    _id: NullableString,
    #[serde(rename = "candidateId", default)]
    _candidate_id: NullableString,
    #[serde(rename = "sentBy", default)]
    _sent_by: NullableString,
    #[serde(rename = "userId", default)]
    _user_id: NullableString,
    #[serde(rename = "text", default)]
    _text: NullableString,
    #[serde(rename = "user", default)]
    _user: NullableObject,
    #[serde(rename = "replyToMessageId", default)]
    _reply_to_message_id: NullableString,
    #[serde(rename = "isRead", default)]
    _is_read: NullableBool,
    #[serde(rename = "attachments", default)]
    _attachments: Option<Vec<Option<AttachmentCheck>>>,
}
