//! Webhooks: the 30 event types (section 6), the register input and the record (section 2.5).

use super::check::NullableString;
use serde::Deserialize;

/// Every event type of section 6, grouped as there (Listing 7, Candidates 2, Scheduling 6,
/// Contracting 4, Owner 3, Property 3, Unit 3). The interface's table holds 28 types (the
/// issue texts say "30"; the interface document is the source of truth).
pub const EVENT_TYPES: [&str; 28] = [
    // Listing
    "LISTING_CREATED",
    "LISTING_UPDATED",
    "LISTING_ARCHIVED",
    "LISTING_ACTIVATED",
    "LISTING_DEACTIVATED",
    "LISTING_PUBLISHED_TO_CHANNEL",
    "LISTING_UNPUBLISHED_FROM_CHANNEL",
    // Candidates
    "CANDIDATE_PARSED",
    "LISTING_CANDIDATE_APPLIED",
    // Scheduling
    "LISTING_CANDIDATE_SCHEDULE_INVITED_VIEWING",
    "LISTING_CANDIDATE_SCHEDULE_NEW_TIMESLOTS_REQUESTED",
    "LISTING_CANDIDATE_SCHEDULE_TIMESLOT_BOOKED_ADMIN",
    "LISTING_CANDIDATE_SCHEDULE_TIMESLOT_BOOKED_CANDIDATE",
    "LISTING_CANDIDATE_SCHEDULE_TIMESLOT_BOOKING_REMOVED_ADMIN",
    "LISTING_CANDIDATE_SCHEDULE_TIMESLOT_BOOKING_REMOVED_CANDIDATE",
    // Contracting
    "LISTING_CONTRACT_FLOW_STARTED",
    "LISTING_CONTRACT_FLOW_WITHDRAWN",
    "LISTING_CONTRACT_FLOW_PARTIALLY_SIGNED",
    "LISTING_CONTRACT_FLOW_SIGNED",
    // Owner
    "OWNER_CREATED",
    "OWNER_UPDATED",
    "OWNER_DELETED",
    // Property
    "PROPERTY_CREATED",
    "PROPERTY_UPDATED",
    "PROPERTY_DELETED",
    // Unit
    "UNIT_CREATED",
    "UNIT_UPDATED",
    "UNIT_DELETED",
];

/// Input of `registerWebhook` / `ensureWebhook`.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RegisterWebhookInput {
    /// One of [`EVENT_TYPES`].
    #[serde(rename = "type")]
    pub event_type: String,
    /// Absolute http(s) URL that receives the notifications.
    pub url: String,
}

/// A webhook record (section 2.5): `id`, `type` and `url` are required strings, the other
/// documented fields are type-checked; unknown fields and unknown event types pass through.
#[derive(Debug, Deserialize)]
pub struct WebhookCheck {
    /// Webhook id (any string: vendor examples are not valid UUIDs).
    pub id: String,
    /// Event type; unknown values are accepted.
    #[serde(rename = "type")]
    pub event_type: String,
    /// Notified address.
    pub url: String,
    #[serde(rename = "partnerId", default)]
    _partner_id: NullableString,
    #[serde(rename = "companyId", default)]
    _company_id: NullableString,
    #[serde(rename = "connectedByUserId", default)]
    _connected_by_user_id: NullableString,
    #[serde(rename = "createdAt", default)]
    _created_at: NullableString,
    #[serde(rename = "updatedAt", default)]
    _updated_at: NullableString,
    #[serde(rename = "deletedAt", default)]
    _deleted_at: NullableString,
}
