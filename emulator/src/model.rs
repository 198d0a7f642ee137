//! Data records held per account.

use async_graphql::{Enum, SimpleObject};
use bytes::Bytes;
use serde::Serialize;

/// Who sent a message (`MESSAGE_SENT_BY`).
#[derive(Enum, Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[graphql(name = "MESSAGE_SENT_BY")]
pub enum SentBy {
    /// Sent by an administrator.
    #[graphql(name = "ADMIN")]
    Admin,
    /// Sent by the candidate.
    #[graphql(name = "CANDIDATE")]
    Candidate,
}

/// GraphQL `User`.
#[derive(SimpleObject, Clone, Debug)]
#[graphql(name = "User")]
pub struct User {
    /// User id.
    pub id: Option<String>,
    /// First name.
    pub first_name: Option<String>,
    /// Last name.
    pub last_name: Option<String>,
    /// E-mail address.
    pub email: Option<String>,
}

/// GraphQL `MessageAttachment`.
#[derive(SimpleObject, Clone, Debug)]
#[graphql(name = "MessageAttachment")]
pub struct MessageAttachment {
    /// Attachment id.
    pub id: Option<String>,
    /// File name.
    pub name: Option<String>,
    /// Resource path.
    pub resource_path: Option<String>,
    /// MIME type.
    #[graphql(name = "type")]
    pub kind: Option<String>,
    /// Size in bytes.
    pub size: Option<i32>,
}

/// GraphQL `Message` (plus hidden fields used for filtering and sorting).
#[derive(SimpleObject, Clone, Debug)]
#[graphql(name = "Message")]
pub struct Message {
    /// Numeric part of the id (sort key).
    #[graphql(skip)]
    pub num: u64,
    /// Contact the conversation belongs to.
    #[graphql(skip)]
    pub contact_id: String,
    /// Listing the conversation belongs to.
    #[graphql(skip)]
    pub listing_id: String,
    /// Message id.
    pub id: Option<String>,
    /// Candidate id.
    pub candidate_id: Option<String>,
    /// Sender kind.
    pub sent_by: Option<SentBy>,
    /// Sending user id.
    pub user_id: Option<String>,
    /// Message text.
    pub text: Option<String>,
    /// Sending user.
    pub user: Option<User>,
    /// Id of the message replied to.
    pub reply_to_message_id: Option<String>,
    /// Read flag.
    pub is_read: Option<bool>,
    /// Attachments.
    pub attachments: Option<Vec<Option<MessageAttachment>>>,
}

/// The document types (`DOCUMENT_TYPES`), written once in estatekit-vocab.
pub use estatekit_vocab::DOCUMENT_TYPES;

/// What a new document is made of; the account gives it an id, its company, its full resource
/// path and its timestamps ([`crate::state::Account::add_document`]).
#[derive(Clone, Debug)]
pub struct NewDocument {
    /// Title.
    pub title: String,
    /// Document type.
    pub doc_type: String,
    /// Linked tenant.
    pub tenant_id: Option<String>,
    /// Linked unit.
    pub unit_id: Option<String>,
    /// Linked property.
    pub property_id: Option<String>,
    /// Linked property group.
    pub property_group_id: Option<String>,
    /// Linked candidate.
    pub candidate_id: Option<String>,
    /// Content MIME type.
    pub mime_type: String,
    /// File content.
    pub bytes: Bytes,
}

/// A stored document and its metadata record.
#[derive(Serialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Document {
    /// Document id.
    pub id: String,
    /// `<subdomain>/<companyId>/<given path>/<id>`.
    pub resource_path: String,
    /// Title (the `name` field or the file name).
    pub title: String,
    /// Owning company.
    pub company_id: String,
    /// Document type.
    #[serde(rename = "type")]
    pub doc_type: String,
    /// Linked tenant.
    pub tenant_id: Option<String>,
    /// Linked unit.
    pub unit_id: Option<String>,
    /// Linked property.
    pub property_id: Option<String>,
    /// Linked property group.
    pub property_group_id: Option<String>,
    /// Linked candidate.
    pub candidate_id: Option<String>,
    /// Content size in bytes.
    pub size: u64,
    /// Content MIME type.
    pub mime_type: String,
    /// Creation time.
    pub created_at: String,
    /// Last update time.
    pub updated_at: String,
    /// File content.
    #[serde(skip)]
    pub bytes: Bytes,
}

/// The 28 webhook event types listed in section 6 of the interface.
pub use estatekit_events::EVENT_TYPES;

/// A registered webhook.
#[derive(Serialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Webhook {
    /// Webhook id.
    pub id: String,
    /// Event type.
    #[serde(rename = "type")]
    pub event_type: String,
    /// Partner id.
    pub partner_id: String,
    /// Company id.
    pub company_id: String,
    /// User who registered it.
    pub connected_by_user_id: String,
    /// Receiver URL.
    pub url: String,
    /// Creation time.
    pub created_at: String,
    /// Update time.
    pub updated_at: String,
    /// Deletion time (always null while listed).
    pub deleted_at: Option<String>,
}
