//! Messages (sections 2.1-2.3, endpoint 4.1): the filter, query options, and `Message` /
//! `MessageAttachment` as the service returns them.

use super::{fields_of, AnyObject, Callback, Input, Signal, Text};
use crate::objects_only;
use serde::{Deserialize, Serialize};
#[cfg(feature = "js")]
use tsify::Tsify;

/// Who sent a message (GraphQL enum `MESSAGE_SENT_BY`): written once, in estatekit-vocab.
pub use estatekit_vocab::MessageSentBy;

/// A `Message` field selectable with `MessagesOptions.fields` (`user` goes through `userFields`,
/// because the fields of `User` are not documented).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub enum MessageField {
    /// `id`
    Id,
    /// `candidateId`
    CandidateId,
    /// `sentBy`
    SentBy,
    /// `userId`
    UserId,
    /// `text`
    Text,
    /// `replyToMessageId`
    ReplyToMessageId,
    /// `isRead`
    IsRead,
    /// `attachments` (with all five `MessageAttachment` fields)
    Attachments,
}

impl MessageField {
    /// Every field, in the order of the interface: the default selection.
    pub const ALL: [MessageField; 8] = [
        MessageField::Id,
        MessageField::CandidateId,
        MessageField::SentBy,
        MessageField::UserId,
        MessageField::Text,
        MessageField::ReplyToMessageId,
        MessageField::IsRead,
        MessageField::Attachments,
    ];

    /// The GraphQL name of the field.
    pub fn name(self) -> &'static str {
        match self {
            MessageField::Id => "id",
            MessageField::CandidateId => "candidateId",
            MessageField::SentBy => "sentBy",
            MessageField::UserId => "userId",
            MessageField::Text => "text",
            MessageField::ReplyToMessageId => "replyToMessageId",
            MessageField::IsRead => "isRead",
            MessageField::Attachments => "attachments",
        }
    }
}

/// Sort direction of `GraphSorting`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(Tsify))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum SortDirection {
    /// Ascending.
    #[serde(rename = "ASC")]
    Asc,
    /// Descending.
    #[serde(rename = "DESC")]
    Desc,
}

/// Which conversation to read: give at least one of `candidateId`, `contactId`, `listingId`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(Tsify))]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MessageFilter {
    /// Messages of this candidate.
    #[cfg_attr(feature = "js", tsify(optional))]
    pub candidate_id: Option<String>,
    /// Messages of this contact.
    #[cfg_attr(feature = "js", tsify(optional))]
    pub contact_id: Option<String>,
    /// Messages about this listing.
    #[cfg_attr(feature = "js", tsify(optional))]
    pub listing_id: Option<String>,
    /// Undocumented filter the vendor's examples use; not enough on its own.
    #[cfg_attr(feature = "js", tsify(optional))]
    pub external_contact_id: Option<String>,
}

impl Input for MessageFilter {}

/// Paging of the messages query (`GraphPaging`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(Tsify))]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct GraphPaging {
    /// Number of messages to skip.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "js", tsify(optional))]
    pub skip: Option<u32>,
    /// Number of messages to return.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "js", tsify(optional))]
    pub take: Option<u32>,
}

/// Sorting of the messages query (`GraphSorting`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(Tsify))]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct GraphSorting {
    /// A `Message` field name, e.g. `id`.
    pub field_name: String,
    /// `ASC` or `DESC`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "js", tsify(optional))]
    pub direction: Option<SortDirection>,
}

/// Options of the messages query: the fields selected, paging and sorting, and the call's options.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct MessagesOptions {
    /// `Message` fields to select; default: all of them except `user`.
    #[cfg_attr(feature = "js", tsify(optional, type = "readonly MessageField[]"))]
    pub fields: Option<Vec<MessageField>>,
    /// `User` fields to select; `user` is selected only when this is given.
    #[cfg_attr(feature = "js", tsify(optional, type = "readonly string[]"))]
    pub user_fields: Option<Vec<String>>,
    /// Paging.
    #[cfg_attr(feature = "js", tsify(optional))]
    pub paging: Option<GraphPaging>,
    /// Sorting.
    #[cfg_attr(feature = "js", tsify(optional))]
    pub sort: Option<GraphSorting>,
    /// Aborts the call; it then rejects with kind `aborted`.
    #[cfg_attr(feature = "js", tsify(optional, type = "AbortSignal"))]
    pub signal: Option<Signal>,
    /// Timeout of this call in milliseconds (0 = none); it then rejects with kind `timeout`.
    #[cfg_attr(feature = "js", tsify(optional))]
    pub timeout_ms: Option<u32>,
    /// Told about this call's events, besides the client's `onEvent`.
    #[cfg_attr(feature = "js", tsify(optional, type = "(event: ClientEvent) => void"))]
    pub on_event: Option<Callback>,
}

impl Input for MessagesOptions {
    fn nested(key: &str) -> Option<&'static [&'static str]> {
        match key {
            "paging" => Some(fields_of::<GraphPaging>()),
            "sort" => Some(fields_of::<GraphSorting>()),
            _ => None,
        }
    }
}

/// A file attached to a message (all fields nullable).
// `S`: how its strings are read, as in `DocumentRecord`.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "js", derive(Tsify))]
#[cfg_attr(feature = "js", tsify(missing_as_null))]
#[serde(rename_all = "camelCase", remote = "Self")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "MessageAttachment"))]
pub struct MessageAttachment<S = Text> {
    /// Attachment id.
    #[serde(default)]
    #[cfg_attr(
        feature = "js",
        tsify(optional, type = "string | null", type_params = "")
    )]
    pub id: Option<S>,
    /// File name.
    #[serde(default)]
    #[cfg_attr(
        feature = "js",
        tsify(optional, type = "string | null", type_params = "")
    )]
    pub name: Option<S>,
    /// Where the file is stored.
    #[serde(default)]
    #[cfg_attr(
        feature = "js",
        tsify(optional, type = "string | null", type_params = "")
    )]
    pub resource_path: Option<S>,
    /// Media type.
    #[serde(rename = "type", default)]
    #[cfg_attr(
        feature = "js",
        tsify(optional, type = "string | null", type_params = "")
    )]
    pub media_type: Option<S>,
    /// Size in bytes.
    #[serde(default)]
    pub size: Option<f64>,
}

objects_only!(MessageAttachment<S>);

/// A message (all fields nullable; only selected fields are present).
// `S`: how its strings are read, as in `DocumentRecord`.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "js", derive(Tsify))]
#[cfg_attr(feature = "js", tsify(missing_as_null))]
#[serde(rename_all = "camelCase", remote = "Self")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "Message"))]
pub struct Message<S = Text> {
    /// Message id.
    #[serde(default)]
    #[cfg_attr(
        feature = "js",
        tsify(optional, type = "string | null", type_params = "")
    )]
    pub id: Option<S>,
    /// The candidate the message belongs to.
    #[serde(default)]
    #[cfg_attr(
        feature = "js",
        tsify(optional, type = "string | null", type_params = "")
    )]
    pub candidate_id: Option<S>,
    /// `ADMIN` or `CANDIDATE`; values added later by the service are passed through.
    #[serde(default)]
    #[cfg_attr(
        feature = "js",
        tsify(
            optional,
            type = "MessageSentBy | (string & {}) | null",
            type_params = ""
        )
    )]
    pub sent_by: Option<S>,
    /// The sending user.
    #[serde(default)]
    #[cfg_attr(
        feature = "js",
        tsify(optional, type = "string | null", type_params = "")
    )]
    pub user_id: Option<S>,
    /// The message body.
    #[serde(default)]
    #[cfg_attr(
        feature = "js",
        tsify(optional, type = "string | null", type_params = "")
    )]
    pub text: Option<S>,
    /// The sending user (selected with `userFields`; its fields are not documented).
    #[serde(default)]
    #[cfg_attr(
        feature = "js",
        tsify(optional, type = "Record<string, unknown> | null", type_params = "")
    )]
    pub user: Option<AnyObject>,
    /// The message this one replies to.
    #[serde(default)]
    #[cfg_attr(
        feature = "js",
        tsify(optional, type = "string | null", type_params = "")
    )]
    pub reply_to_message_id: Option<S>,
    /// Read flag.
    #[serde(default)]
    pub is_read: Option<bool>,
    /// Attached files.
    #[serde(default)]
    #[cfg_attr(
        feature = "js",
        tsify(
            optional,
            type = "(MessageAttachment | null)[] | null",
            type_params = ""
        )
    )]
    pub attachments: Option<Vec<Option<MessageAttachment<S>>>>,
}

objects_only!(Message<S>);
