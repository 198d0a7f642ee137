//! Webhook deliveries of the property-management service, as serde types: one definition for
//! the emulator (the sender), the `estatekit/webhooks` module (the receiver, which derives its
//! TypeScript declarations from these types with tsify, feature `ts`) and the tests.
//!
//! What the vendor documents (docs/interface.md, "Not in the interface: deliveries"): every
//! delivery is one envelope `{ uuid, operation, subdomain, language, createdAt, data }`;
//! `operation` is the event type; five types have a known `data` shape, the `data` of the other
//! 23 is unknown. The service may add types: an `operation` outside the 28 is an *unknown-type*
//! event, not an error.
//!
//! Checking a delivery is two steps, so that a deserializer never has to walk a `data` it does
//! not know (it may be nested arbitrarily deep): [`Delivery`] checks the envelope with `data` of
//! a type the caller chooses (the wasm module keeps the JavaScript value as it is), then
//! [`check_data`] checks `data` against the shape of its `operation`, if that has one.
//!
//! Members the types do not declare are allowed (and the receiver returns the caller's own
//! object, so they are kept). Enum-like strings (candidate source, property and unit type,
//! contract status) are open strings, as the notes say their value sets are unknown; so is
//! `contractFlowType`: the notes list five values, but a sixth added by the service must not
//! turn every contract event into a rejected delivery, so its TypeScript type is the five
//! literals or any other string, and any string parses. Members whose type the notes do not give
//! and whose name does not make it plainly text (amounts, counts, flags, `order`, `size`,
//! `contractData`) are [`Opaque`]: `unknown` to TypeScript, not checked.

use serde::de::{self, Deserializer, IgnoredAny, Visitor};
use serde::Deserialize;
use std::fmt;

#[cfg(feature = "ts")]
use tsify::Tsify;

/// The 28 event types of the interface (section 6), in its order: a delivery's `operation`
/// (written once, in estatekit-vocab).
pub use estatekit_vocab::EVENT_TYPES;

/// What a delivery's `operation` says about its `data`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operation {
    /// One of the five types with a documented `data` shape.
    KnownShape,
    /// One of the other 23 types: `data` is any JSON.
    UnknownShape,
    /// Not among the 28 (a type the service added): an unknown-type event.
    UnknownType,
}

/// The five event types whose `data` shape is documented.
pub const KNOWN_SHAPES: [&str; 5] = [
    "LISTING_CANDIDATE_APPLIED",
    "CANDIDATE_PARSED",
    "LISTING_CANDIDATE_SCHEDULE_INVITED_VIEWING",
    "LISTING_CONTRACT_FLOW_STARTED",
    "LISTING_CONTRACT_FLOW_SIGNED",
];

/// What `operation` is: a type with a known `data` shape, another of the 28, or an unknown type.
pub fn operation(operation: &str) -> Operation {
    if KNOWN_SHAPES.contains(&operation) {
        Operation::KnownShape
    } else if EVENT_TYPES.contains(&operation) {
        Operation::UnknownShape
    } else {
        Operation::UnknownType
    }
}

/// Checks a delivery's `data` against the shape of its `operation`; `data` of any other
/// operation is not read at all (it is any JSON, possibly nested deeper than a deserializer's
/// stack allows).
pub fn check_data<'de, D: Deserializer<'de>>(operation: &str, data: D) -> Result<(), D::Error> {
    match operation {
        "LISTING_CANDIDATE_APPLIED" => ListingCandidateAppliedData::deserialize(data).map(drop),
        "CANDIDATE_PARSED" => CandidateParsedData::deserialize(data).map(drop),
        "LISTING_CANDIDATE_SCHEDULE_INVITED_VIEWING" => {
            InvitedViewingData::deserialize(data).map(drop)
        }
        "LISTING_CONTRACT_FLOW_STARTED" => ContractFlowStartedData::deserialize(data).map(drop),
        "LISTING_CONTRACT_FLOW_SIGNED" => ContractFlowSignedData::deserialize(data).map(drop),
        _ => Ok(()),
    }
}

/// [`check_data`], telling the first violation as `(path, message)` with its JSON path from the
/// envelope (`data` itself, or e.g. `data.listing.unit.name`).
pub fn check_data_at<'de, D: Deserializer<'de>>(
    operation: &str,
    data: D,
) -> Result<(), (String, String)> {
    let mut track = serde_path_to_error::Track::new();
    check_data(
        operation,
        serde_path_to_error::Deserializer::new(data, &mut track),
    )
    .map_err(|e| {
        let inner = track.path().to_string();
        let path = if inner == "." {
            "data".to_owned()
        } else {
            format!("data.{inner}")
        };
        (path, e.to_string())
    })
}

/// The envelope of a delivery, checked member by member, with `data` read as `D` (the caller's
/// choice: a JavaScript value kept as it is, `serde_json::Value`, [`Opaque`]). Its `data` is
/// then checked by [`check_data`].
#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Delivery<D> {
    /// The event's id: the same in every retry of a delivery (what deduplication keys on).
    pub uuid: String,
    /// The event type; any string (see [`operation`]).
    pub operation: String,
    /// The account's subdomain.
    pub subdomain: String,
    /// The account's language (`"en"`).
    pub language: String,
    /// When the event happened, ISO 8601.
    pub created_at: Timestamp,
    /// The event's payload.
    pub data: D,
}

/// The envelope of an event of a known type `operation`, with its `data` typed `D`.
#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Envelope<D> {
    /// The event's id: the same in every retry of a delivery (what deduplication keys on).
    pub uuid: String,
    /// The account's subdomain (check it against yours).
    pub subdomain: String,
    /// The account's language (`"en"`).
    pub language: String,
    /// When the event happened, an ISO 8601 timestamp (`2020-09-30T10:07:28.052Z`).
    #[cfg_attr(feature = "ts", tsify(type = "string"))]
    pub created_at: Timestamp,
    /// The event's payload: its type's shape, or `unknown` for the 23 types without one.
    pub data: D,
}

/// An event of one of the 28 types, discriminated by `operation`.
#[allow(missing_docs, clippy::large_enum_variant)]
#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(Tsify))]
#[serde(tag = "operation", rename_all = "SCREAMING_SNAKE_CASE")]
pub enum KnownEvent {
    ListingCreated(Envelope<Opaque>),
    ListingUpdated(Envelope<Opaque>),
    ListingArchived(Envelope<Opaque>),
    ListingActivated(Envelope<Opaque>),
    ListingDeactivated(Envelope<Opaque>),
    ListingPublishedToChannel(Envelope<Opaque>),
    ListingUnpublishedFromChannel(Envelope<Opaque>),
    CandidateParsed(Envelope<CandidateParsedData>),
    ListingCandidateApplied(Envelope<ListingCandidateAppliedData>),
    ListingCandidateScheduleInvitedViewing(Envelope<InvitedViewingData>),
    ListingCandidateScheduleNewTimeslotsRequested(Envelope<Opaque>),
    ListingCandidateScheduleTimeslotBookedAdmin(Envelope<Opaque>),
    ListingCandidateScheduleTimeslotBookedCandidate(Envelope<Opaque>),
    ListingCandidateScheduleTimeslotBookingRemovedAdmin(Envelope<Opaque>),
    ListingCandidateScheduleTimeslotBookingRemovedCandidate(Envelope<Opaque>),
    ListingContractFlowStarted(Envelope<ContractFlowStartedData>),
    ListingContractFlowWithdrawn(Envelope<Opaque>),
    ListingContractFlowPartiallySigned(Envelope<Opaque>),
    ListingContractFlowSigned(Envelope<ContractFlowSignedData>),
    OwnerCreated(Envelope<Opaque>),
    OwnerUpdated(Envelope<Opaque>),
    OwnerDeleted(Envelope<Opaque>),
    PropertyCreated(Envelope<Opaque>),
    PropertyUpdated(Envelope<Opaque>),
    PropertyDeleted(Envelope<Opaque>),
    UnitCreated(Envelope<Opaque>),
    UnitUpdated(Envelope<Opaque>),
    UnitDeleted(Envelope<Opaque>),
}

/// An event whose `operation` is not among the 28 (a type the service added after this
/// package): `operation` is `null`, so that no event type's literal matches it, and the type
/// the service sent is `rawOperation`. Every other member is as sent.
#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct UnknownTypeEvent {
    /// Always `null`: test `rawOperation` for types this package does not know yet.
    #[cfg_attr(feature = "ts", tsify(type = "null"))]
    pub operation: Opaque,
    /// The `operation` the service sent.
    pub raw_operation: String,
    /// The event's id: the same in every retry of a delivery.
    pub uuid: String,
    /// The account's subdomain.
    pub subdomain: String,
    /// The account's language.
    pub language: String,
    /// When the event happened, an ISO 8601 timestamp.
    #[cfg_attr(feature = "ts", tsify(type = "string"))]
    pub created_at: Timestamp,
    /// The event's payload, any JSON.
    pub data: Opaque,
}

/// A delivered event: one of the 28 types (narrowed by `operation`), or an unknown-type event
/// (`operation: null`, the type in `rawOperation`).
// Large variants: these are read once per delivery, natively (the module checks without them).
#[allow(missing_docs, clippy::large_enum_variant)]
#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(Tsify))]
#[serde(untagged)]
pub enum WebhookEvent {
    Known(KnownEvent),
    UnknownType(UnknownTypeEvent),
}

/// Any JSON value, not read (`unknown` to TypeScript): the `data` of the 23 types without a
/// documented shape, and members whose type is not documented.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "ts", derive(Tsify))]
#[cfg_attr(feature = "ts", tsify(type = "unknown"))]
pub struct Opaque;

impl<'de> Deserialize<'de> for Opaque {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        IgnoredAny::deserialize(deserializer).map(|_| Opaque)
    }
}

/// An ISO 8601 timestamp with date, time and offset (`2020-09-30T10:07:28.052Z`, RFC 3339's
/// profile: `T` or `t`, fractions of any length, `Z` or `±hh:mm`), kept as sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Timestamp(pub String);

impl<'de> Deserialize<'de> for Timestamp {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        if is_timestamp(&text) {
            Ok(Timestamp(text))
        } else {
            Err(de::Error::custom(format!(
                "expected an ISO 8601 timestamp like 2020-09-30T10:07:28.052Z, got \"{}\"",
                excerpt(&text, 40)
            )))
        }
    }
}

/// An RFC 3339 date-time string, in the JSON Schemas.
#[cfg(feature = "schema")]
impl schemars::JsonSchema for Timestamp {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Timestamp".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "string", "format": "date-time" })
    }
}

/// At most `max` characters of `text`, with `…` when cut.
pub fn excerpt(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((cut, _)) => format!("{}…", text.get(..cut).unwrap_or_default()),
        None => text.to_string(),
    }
}

/// Whether `text` is `YYYY-MM-DDTHH:MM:SS[.f+](Z|±HH:MM)` with every field in its range.
pub fn is_timestamp(text: &str) -> bool {
    let b = text.as_bytes();
    let num = |from: usize, len: usize| -> Option<u32> {
        let digits = b.get(from..from + len)?;
        digits.iter().try_fold(0u32, |n, d| {
            d.is_ascii_digit().then(|| n * 10 + u32::from(d - b'0'))
        })
    };
    let at = |i: usize, c: u8| b.get(i) == Some(&c);
    let fixed = (|| {
        let year = num(0, 4)?;
        let month = num(5, 2)?;
        let day = num(8, 2)?;
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
        let days = match month {
            2 if leap => 29,
            2 => 28,
            4 | 6 | 9 | 11 => 30,
            _ => 31,
        };
        let ok = at(4, b'-')
            && at(7, b'-')
            && (at(10, b'T') || at(10, b't'))
            && at(13, b':')
            && at(16, b':')
            && (1..=12).contains(&month)
            && (1..=days).contains(&day)
            && num(11, 2)? <= 23
            && num(14, 2)? <= 59
            && num(17, 2)? <= 60;
        ok.then_some(())
    })();
    if fixed.is_none() {
        return false;
    }
    let mut i = 19;
    if at(i, b'.') {
        let digits = b
            .iter()
            .skip(i + 1)
            .take_while(|d| d.is_ascii_digit())
            .count();
        if digits == 0 {
            return false;
        }
        i += 1 + digits;
    }
    match b.get(i) {
        Some(b'Z' | b'z') => i + 1 == b.len(),
        Some(b'+' | b'-') => {
            i + 6 == b.len()
                && at(i + 3, b':')
                && num(i + 1, 2).is_some_and(|h| h <= 23)
                && num(i + 4, 2).is_some_and(|m| m <= 59)
        }
        _ => false,
    }
}

/// A string or a number, as sent (`integration.internalId`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "ts", derive(Tsify))]
#[cfg_attr(feature = "ts", tsify(type = "string | number"))]
pub struct StringOrNumber;

impl<'de> Deserialize<'de> for StringOrNumber {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = StringOrNumber;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string or a number")
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<StringOrNumber, E> {
                Ok(StringOrNumber)
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<StringOrNumber, E> {
                Ok(StringOrNumber)
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<StringOrNumber, E> {
                Ok(StringOrNumber)
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<StringOrNumber, E> {
                Ok(StringOrNumber)
            }
        }
        deserializer.deserialize_any(V)
    }
}

/// The documented values of `contractFlowType`; the member accepts any other string too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "ts", derive(Tsify))]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[allow(missing_docs)]
pub enum ContractFlowType {
    Virtual,
    Offline,
    DownloadUpload,
    #[serde(rename = "ELECTRONIC_SIGNATURE_V2")]
    ElectronicSignatureV2,
    ElectronicSignatureQes,
}

/// `data` of `LISTING_CANDIDATE_APPLIED`: a candidate applied to a listing.
#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct ListingCandidateAppliedData {
    /// The candidate's id.
    pub id: String,
    /// Where the candidate came from (an open set of values).
    pub candidate_source: String,
    /// The candidate's email address.
    pub email: String,
    /// The candidate's first name.
    pub first_name: String,
    /// The candidate's last name.
    pub last_name: String,
    /// The listing applied to.
    pub listing: EventListing,
}

/// A listing in an event's `data`: its property and unit.
#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct EventListing {
    /// The listing's id.
    pub id: String,
    /// The property listed.
    pub property: EventProperty,
    /// The unit listed.
    pub unit: EventUnit,
}

/// A property in an event's `data`.
#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct EventProperty {
    /// The property's id.
    pub id: String,
    /// The property's object id.
    pub object_id: String,
    /// The property's type (an open set of values).
    #[serde(rename = "type")]
    pub kind: String,
    /// The property's address.
    pub address: EventAddress,
}

/// An address in an event's `data`.
#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct EventAddress {
    /// Postal code.
    pub zip: String,
    /// City.
    pub city: String,
    /// House number (text: `12a`).
    pub street_number: String,
    /// Street name.
    pub street_name: String,
    /// A place id of a maps service.
    pub place_id: String,
    /// Coordinates, when known.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional, type = "EventLocation | null"))]
    pub location: Option<EventLocation>,
}

/// Coordinates.
#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(Tsify))]
pub struct EventLocation {
    /// Latitude.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional, type = "number | null"))]
    pub lat: Option<f64>,
    /// Longitude.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional, type = "number | null"))]
    pub lng: Option<f64>,
}

/// A unit in an event's `data`.
#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct EventUnit {
    /// The unit's id.
    pub id: String,
    /// The unit's object id.
    pub object_id: String,
    /// The unit's name.
    pub name: String,
    /// The unit's type (an open set of values).
    #[serde(rename = "type")]
    pub kind: String,
}

/// `data` of `CANDIDATE_PARSED`: a candidate parsed from a portal's message.
#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct CandidateParsedData {
    /// The portal's id.
    pub portal_id: String,
    /// The listing's id on the portal.
    pub external_listing_id: String,
    /// An internal id (string or number).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional, type = "string | number | null"))]
    pub internal_id: Option<StringOrNumber>,
    /// Where the candidate came from (an open set of values).
    pub candidate_source: String,
    /// How the candidate came in (an open set of values).
    pub integration_type: String,
    /// The candidate's email address.
    pub email: String,
    /// The candidate's first name.
    pub first_name: String,
    /// The candidate's last name.
    pub last_name: String,
    /// Phone number.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional, type = "string | null"))]
    pub phone_number: Option<String>,
    /// Street.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional, type = "string | null"))]
    pub street: Option<String>,
    /// House number (type not documented).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub number: Option<Opaque>,
    /// Postal code.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional, type = "string | null"))]
    pub zip_code: Option<String>,
    /// City.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional, type = "string | null"))]
    pub city: Option<String>,
    /// Employment type.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional, type = "EmploymentType | null"))]
    pub employment_type: Option<EmploymentType>,
    /// Pets.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional, type = "HasPets | null"))]
    pub has_pets: Option<HasPets>,
    /// Net monthly income (type not documented).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub net_monthly_income: Option<Opaque>,
    /// Net monthly income as a range.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional, type = "IncomeRange | null"))]
    pub net_monthly_income_ranges: Option<IncomeRange>,
    /// How many people move in (type not documented).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub no_total_people_moving_in: Option<Opaque>,
    /// The household.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional, type = "HouseholdPersons | null"))]
    pub household_persons: Option<HouseholdPersons>,
    /// The candidate's message.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional, type = "string | null"))]
    pub message: Option<String>,
    /// Desired start date.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional, type = "string | null"))]
    pub desired_start_date: Option<String>,
    /// The integration the candidate came through.
    pub integration: Integration,
}

/// `employmentType` of `CANDIDATE_PARSED`.
#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct EmploymentType {
    /// The value selected (type not documented).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub selected_value: Option<Opaque>,
}

/// `hasPets` of `CANDIDATE_PARSED`.
#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(Tsify))]
pub struct HasPets {
    /// Whether checked (type not documented).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub checked: Option<Opaque>,
    /// The answer (type not documented).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub answer: Option<Opaque>,
}

/// `netMonthlyIncomeRanges` of `CANDIDATE_PARSED`.
#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(Tsify))]
pub struct IncomeRange {
    /// Lower bound (type not documented).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub from: Option<Opaque>,
    /// Upper bound (type not documented).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub to: Option<Opaque>,
}

/// `householdPersons` of `CANDIDATE_PARSED`.
#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(Tsify))]
pub struct HouseholdPersons {
    /// How many (type not documented).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub count: Option<Opaque>,
    /// Who (type not documented).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub values: Option<Opaque>,
}

/// `integration` of `CANDIDATE_PARSED`.
#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Integration {
    /// The integration's id.
    pub id: String,
    /// The listing's id.
    pub listing_id: String,
    /// The company integration's id.
    pub company_integration_id: String,
    /// An internal id, a string or a number.
    pub internal_id: StringOrNumber,
    /// The integration's type (an open set of values).
    #[serde(rename = "type")]
    pub kind: String,
    /// The listing's id on the portal.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional, type = "string | null"))]
    pub external_listing_id: Option<String>,
}

/// `data` of `LISTING_CANDIDATE_SCHEDULE_INVITED_VIEWING`: a candidate invited to a viewing.
#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct InvitedViewingData {
    /// The invitation's id.
    pub invitation_id: String,
    /// The listing.
    pub listing: EventListing,
    /// The candidate invited.
    pub candidate: EventCandidate,
}

/// A candidate in an event's `data`.
#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(Tsify))]
pub struct EventCandidate {
    /// The candidate's id.
    pub id: String,
    /// The candidate's email address.
    pub email: String,
}

/// `data` of `LISTING_CONTRACT_FLOW_STARTED`.
#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct ContractFlowStartedData {
    /// The contract flow's id.
    pub id: String,
    /// The contract template's id.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional, type = "string | null"))]
    pub contract_template_id: Option<String>,
    /// What the contract is about.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional, type = "ContractMetadata | null"))]
    pub metadata: Option<ContractMetadata>,
    /// The contract's data (not documented).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub contract_data: Option<Opaque>,
    /// The flow's status (an open set of values).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional, type = "string | null"))]
    pub status: Option<String>,
    /// How the contract is signed: a documented value, or another the service added.
    #[cfg_attr(feature = "ts", tsify(type = "ContractFlowType | (string & {})"))]
    pub contract_flow_type: String,
    /// The contract's file.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional, type = "ContractFile | null"))]
    pub contract_file: Option<ContractFile>,
}

/// `data` of `LISTING_CONTRACT_FLOW_SIGNED`: as STARTED without `contractTemplateId`, plus
/// `auditTrailFile`.
#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct ContractFlowSignedData {
    /// The contract flow's id.
    pub id: String,
    /// What the contract is about.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional, type = "ContractMetadata | null"))]
    pub metadata: Option<ContractMetadata>,
    /// The contract's data (not documented).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub contract_data: Option<Opaque>,
    /// The flow's status (an open set of values).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional, type = "string | null"))]
    pub status: Option<String>,
    /// How the contract was signed: a documented value, or another the service added.
    #[cfg_attr(feature = "ts", tsify(type = "ContractFlowType | (string & {})"))]
    pub contract_flow_type: String,
    /// The contract's file.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional, type = "ContractFile | null"))]
    pub contract_file: Option<ContractFile>,
    /// The signatures' audit trail.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional, type = "ContractFile | null"))]
    pub audit_trail_file: Option<ContractFile>,
}

/// `metadata` of a contract flow.
#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct ContractMetadata {
    /// The unit's id.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional, type = "string | null"))]
    pub unit_id: Option<String>,
    /// The listing's id.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional, type = "string | null"))]
    pub listing_id: Option<String>,
    /// The candidate's id.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional, type = "string | null"))]
    pub candidate_id: Option<String>,
}

/// A file of a contract flow (`contractFile`, `auditTrailFile`).
#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct ContractFile {
    /// File name.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional, type = "string | null"))]
    pub name: Option<String>,
    /// Where the file is stored.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional, type = "string | null"))]
    pub resource_path: Option<String>,
    /// Position (type not documented).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub order: Option<Opaque>,
    /// Size (type not documented).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub size: Option<Opaque>,
    /// MIME or file type (an open set of values).
    #[serde(default, rename = "type")]
    #[cfg_attr(feature = "ts", tsify(optional, type = "string | null"))]
    pub kind: Option<String>,
}
