//! Webhooks: the 28 event types (section 6), the register input and the record (section 2.5).

use super::Text;
use crate::objects_only;
use serde::{Deserialize, Serialize};
#[cfg(feature = "js")]
use tsify::Tsify;

/// An event type a webhook can subscribe to (section 6 of the interface): written once, in
/// estatekit-vocab.
pub use estatekit_vocab::EventType;

/// Input of `registerWebhook` and `ensureWebhook`; also the JSON body sent to register one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(Tsify))]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RegisterWebhookInput {
    /// The event to be notified of.
    #[serde(rename = "type")]
    pub event_type: EventType,
    /// Absolute http(s) URL that receives the notifications.
    pub url: String,
}

impl super::Input for RegisterWebhookInput {}

/// A registered webhook (section 2.5), as the service returns it. `id`, `type` and `url` are
/// required; every other field the service sends is kept in the object the caller receives.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "js", derive(Tsify))]
#[cfg_attr(feature = "js", tsify(missing_as_null))]
#[serde(rename_all = "camelCase", remote = "Self")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "Webhook"))]
pub struct Webhook {
    /// Webhook id.
    #[cfg_attr(feature = "js", tsify(type = "string"))]
    pub id: Text,
    /// An `EventType`; values added later by the service are passed through.
    #[serde(rename = "type")]
    #[cfg_attr(feature = "js", tsify(type = "EventType | (string & {})"))]
    pub event_type: Text,
    /// The address that receives notifications.
    #[cfg_attr(feature = "js", tsify(type = "string"))]
    pub url: Text,
    /// Partner id.
    #[serde(default)]
    #[cfg_attr(feature = "js", tsify(optional, type = "string | null"))]
    pub partner_id: Option<Text>,
    /// Company id.
    #[serde(default)]
    #[cfg_attr(feature = "js", tsify(optional, type = "string | null"))]
    pub company_id: Option<Text>,
    /// The user who registered the webhook.
    #[serde(default)]
    #[cfg_attr(feature = "js", tsify(optional, type = "string | null"))]
    pub connected_by_user_id: Option<Text>,
    /// ISO 8601 creation time.
    #[serde(default)]
    #[cfg_attr(feature = "js", tsify(optional, type = "string | null"))]
    pub created_at: Option<Text>,
    /// ISO 8601 time of the last change.
    #[serde(default)]
    #[cfg_attr(feature = "js", tsify(optional, type = "string | null"))]
    pub updated_at: Option<Text>,
    /// ISO 8601 deletion time; null while not deleted.
    #[serde(default)]
    #[cfg_attr(feature = "js", tsify(optional, type = "string | null"))]
    pub deleted_at: Option<Text>,
}

objects_only!(Webhook);
