//! Messages (sections 2.1-2.3, endpoint 4.1): the filter, query options and the checked
//! shape of `Message` / `MessageAttachment`.

use crate::api::input::{FromInput, InputValue};
use crate::api::schema::{Field, Ty};
use crate::error::Error;

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
#[derive(Clone, Debug, Default, PartialEq)]
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

impl FromInput for MessageFilter {
    fn from_input(value: &InputValue, path: &str) -> Result<Self, Error> {
        let f = value.object(
            path,
            &["candidateId", "contactId", "listingId", "externalContactId"],
        )?;
        Ok(MessageFilter {
            candidate_id: f.string("candidateId")?,
            contact_id: f.string("contactId")?,
            listing_id: f.string("listingId")?,
            external_contact_id: f.string("externalContactId")?,
        })
    }
}

/// `GraphPaging`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Paging {
    /// Number of messages to skip.
    pub skip: Option<u32>,
    /// Number of messages to return.
    pub take: Option<u32>,
}

/// `GraphSorting`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sort {
    /// A `Message` field name, e.g. `id`.
    pub field_name: String,
    /// `ASC` or `DESC`.
    pub direction: Option<String>,
}

/// Second argument of `messages`.
#[derive(Clone, Debug, Default, PartialEq)]
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
}

impl FromInput for MessagesOptions {
    fn from_input(value: &InputValue, path: &str) -> Result<Self, Error> {
        let o = value.object(
            path,
            &[
                "fields",
                "userFields",
                "paging",
                "sort",
                "timeoutMs",
                "signal",
            ],
        )?;
        let paging = match o.object("paging", &["skip", "take"])? {
            Some(p) => Some(Paging {
                skip: p.count("skip")?,
                take: p.count("take")?,
            }),
            None => None,
        };
        let sort = match o.object("sort", &["fieldName", "direction"])? {
            Some(s) => Some(Sort {
                field_name: s.required_string("fieldName")?,
                direction: s.string("direction")?,
            }),
            None => None,
        };
        Ok(MessagesOptions {
            fields: o.strings("fields")?,
            user_fields: o.strings("userFields")?,
            paging,
            sort,
            timeout_ms: o.count("timeoutMs")?,
        })
    }
}

/// A `MessageAttachment` (all fields nullable).
pub static ATTACHMENT: Ty = Ty::Record(&[
    Field::optional("id", Ty::String),
    Field::optional("name", Ty::String),
    Field::optional("resourcePath", Ty::String),
    Field::optional("type", Ty::String),
    Field::optional("size", Ty::Number),
]);

/// A `Message` (all fields nullable; unknown `sentBy` values pass).
pub static MESSAGE: Ty = Ty::Record(&[
    Field::optional("id", Ty::String),
    Field::optional("candidateId", Ty::String),
    Field::optional("sentBy", Ty::String),
    Field::optional("userId", Ty::String),
    Field::optional("text", Ty::String),
    Field::optional("user", Ty::Object),
    Field::optional("replyToMessageId", Ty::String),
    Field::optional("isRead", Ty::Bool),
    Field::optional(
        "attachments",
        Ty::List {
            item: &ATTACHMENT,
            nullable_items: true,
        },
    ),
]);

/// `data.messages`: a list of `Message`s (GraphQL `[Message]`, elements nullable).
pub static MESSAGE_LIST: Ty = Ty::List {
    item: &MESSAGE,
    nullable_items: true,
};
