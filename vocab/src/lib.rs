//! The service's closed lists, each written once (section 6 and 2.4 of the interface): a new
//! event type or document type is a one-line change here. Each list is an enum (serde names
//! as the service spells them; with the `ts` feature, a TypeScript string-literal union derived
//! by tsify) and a constant of its names in the interface's order. Read by estatekit-core (the
//! client's model), estatekit-events (the deliveries), the emulator and, through the `vocab-js`
//! binary, the package's JavaScript constants (`EVENT_TYPES`, `DOCUMENT_TYPES`, ...).

#[cfg(feature = "ts")]
use tsify::Tsify;

pub mod operations;
pub mod query;

/// Declares a closed list: the enum, its names' constant and `as_str`.
macro_rules! closed_list {
    (
        $(#[$meta:meta])*
        $name:ident, $names:ident {
            $( $(#[$variant_meta:meta])* $variant:ident = $text:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
        #[cfg_attr(feature = "ts", derive(Tsify))]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        pub enum $name {
            $( $(#[$variant_meta])* #[serde(rename = $text)] $variant, )+
        }

        #[doc = concat!("Every name of [`", stringify!($name), "`], in the interface's order.")]
        pub const $names: &[&str] = &[$($text),+];

        impl $name {
            /// The name as the service spells it.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $( $name::$variant => $text, )+
                }
            }
        }
    };
}

closed_list! {
    /// An event type a webhook can subscribe to (section 6 of the interface, 28 types grouped
    /// Listing, Candidates, Scheduling, Contracting, Owner, Property, Unit).
    #[allow(missing_docs)]
    EventType, EVENT_TYPES {
        ListingCreated = "LISTING_CREATED",
        ListingUpdated = "LISTING_UPDATED",
        ListingArchived = "LISTING_ARCHIVED",
        ListingActivated = "LISTING_ACTIVATED",
        ListingDeactivated = "LISTING_DEACTIVATED",
        ListingPublishedToChannel = "LISTING_PUBLISHED_TO_CHANNEL",
        ListingUnpublishedFromChannel = "LISTING_UNPUBLISHED_FROM_CHANNEL",
        CandidateParsed = "CANDIDATE_PARSED",
        ListingCandidateApplied = "LISTING_CANDIDATE_APPLIED",
        ListingCandidateScheduleInvitedViewing = "LISTING_CANDIDATE_SCHEDULE_INVITED_VIEWING",
        ListingCandidateScheduleNewTimeslotsRequested = "LISTING_CANDIDATE_SCHEDULE_NEW_TIMESLOTS_REQUESTED",
        ListingCandidateScheduleTimeslotBookedAdmin = "LISTING_CANDIDATE_SCHEDULE_TIMESLOT_BOOKED_ADMIN",
        ListingCandidateScheduleTimeslotBookedCandidate = "LISTING_CANDIDATE_SCHEDULE_TIMESLOT_BOOKED_CANDIDATE",
        ListingCandidateScheduleTimeslotBookingRemovedAdmin = "LISTING_CANDIDATE_SCHEDULE_TIMESLOT_BOOKING_REMOVED_ADMIN",
        ListingCandidateScheduleTimeslotBookingRemovedCandidate = "LISTING_CANDIDATE_SCHEDULE_TIMESLOT_BOOKING_REMOVED_CANDIDATE",
        ListingContractFlowStarted = "LISTING_CONTRACT_FLOW_STARTED",
        ListingContractFlowWithdrawn = "LISTING_CONTRACT_FLOW_WITHDRAWN",
        ListingContractFlowPartiallySigned = "LISTING_CONTRACT_FLOW_PARTIALLY_SIGNED",
        ListingContractFlowSigned = "LISTING_CONTRACT_FLOW_SIGNED",
        OwnerCreated = "OWNER_CREATED",
        OwnerUpdated = "OWNER_UPDATED",
        OwnerDeleted = "OWNER_DELETED",
        PropertyCreated = "PROPERTY_CREATED",
        PropertyUpdated = "PROPERTY_UPDATED",
        PropertyDeleted = "PROPERTY_DELETED",
        UnitCreated = "UNIT_CREATED",
        UnitUpdated = "UNIT_UPDATED",
        UnitDeleted = "UNIT_DELETED",
    }
}

closed_list! {
    /// A document type (DOCUMENT_TYPES of the interface). `PRE-MOVE_IN` is a literal value.
    DocumentType, DOCUMENT_TYPES {
        /// The default type.
        Document = "DOCUMENT",
        /// A tenant's rental application.
        RentalApplication = "RENTAL_APPLICATION",
        /// A contract with a tenant or buyer.
        Contract = "CONTRACT",
        /// Move-in protocol.
        MoveIn = "MOVE_IN",
        /// Move-out protocol.
        MoveOut = "MOVE_OUT",
        /// Pre-move-in protocol.
        PreMoveIn = "PRE-MOVE_IN",
        /// Selling protocol.
        Selling = "SELLING",
    }
}

closed_list! {
    /// Who sent a message (GraphQL enum `MESSAGE_SENT_BY`).
    MessageSentBy, SENT_BY {
        /// A user of the property manager.
        Admin = "ADMIN",
        /// The rental candidate.
        Candidate = "CANDIDATE",
    }
}

closed_list! {
    /// Image format an upload can be converted to.
    ImageFormat, IMAGE_FORMATS {
        /// JPEG.
        Jpeg = "JPEG",
        /// PNG.
        Png = "PNG",
    }
}

/// A caller's input error in JavaScript terms rather than serde's: `invalid type: unit value,
/// expected a string` reads `is missing, expected a string`; a sequence is an array, a map or a
/// struct an object, `u32` a non-negative integer. (Prefix comparisons only: a substring search
/// costs the module more than this whole function.)
pub fn in_js_terms(message: &str) -> String {
    // serde-wasm-bindgen reading an array from a value that is not an object.
    if message == "TypeError: Reflect.get called on non-object" {
        return "is not an array".to_owned();
    }
    if let Some(rest) = message.strip_prefix("unknown variant ") {
        return format!("is {rest}");
    }
    let Some(rest) = message
        .strip_prefix("invalid type: ")
        .or_else(|| message.strip_prefix("invalid value: "))
    else {
        return message.to_owned();
    };
    const SEP: &[u8] = b", expected ";
    let Some(at) = rest.as_bytes().windows(SEP.len()).position(|w| w == SEP) else {
        return message.to_owned();
    };
    let (given, expected) = (
        rest.get(..at).unwrap_or(rest),
        rest.get(at + SEP.len()..).unwrap_or(""),
    );
    let value = |prefix: &str| given.strip_prefix(prefix);
    let given = match given {
        "unit value" => "is missing".to_owned(),
        "sequence" => "is an array".to_owned(),
        "map" => "is an object".to_owned(),
        "unit variant" => "is a string".to_owned(),
        _ if given.starts_with("JsValue([") => "is an array".to_owned(),
        _ if given.starts_with("JsValue(Object(") => "is an object".to_owned(),
        _ if given.starts_with("JsValue(") => "is of the wrong kind".to_owned(),
        _ => match value("floating point ").or_else(|| value("integer ")) {
            // JavaScript writes -1, not serde's -1.0.
            Some(n) => match n.strip_suffix(".0`") {
                Some(whole) => format!("is the number {whole}`"),
                None => format!("is the number {n}"),
            },
            None => format!("is the {given}"),
        },
    };
    let expected = match expected {
        "a sequence" => "an array",
        "a map" => "an object",
        "unit" => "null",
        "u8" | "u16" | "u32" | "u64" => "a non-negative integer",
        "f32" | "f64" => "a number",
        _ if expected.starts_with("struct ") => "an object",
        _ => match expected.strip_prefix("enum ") {
            Some(name) => return format!("{given}, expected a {name}"),
            None => expected,
        },
    };
    format!("{given}, expected {expected}")
}

/// The package's JavaScript constants of these lists, as an ES module (what `vocab-js`
/// prints): frozen arrays typed by the unions the module's declarations derive.
pub fn javascript() -> String {
    let list = |name: &str, union: &str, names: &[&str]| {
        let quoted: Vec<String> = names.iter().map(|n| format!("  \"{n}\",")).collect();
        format!(
            "/** @type {{readonly import(\"./estatekit_wasm.js\").{union}[]}} */\nexport const {name} = Object.freeze([\n{}\n]);\n",
            quoted.join("\n")
        )
    };
    [
        "// Generated by `cargo run -p estatekit-vocab --bin vocab-js` (scripts/build-pkg.sh) from\n// vocab/src/lib.rs, where each list is written once. Do not edit.\n".to_owned(),
        list("EVENT_TYPES", "EventType", EVENT_TYPES),
        list("DOCUMENT_TYPES", "DocumentType", DOCUMENT_TYPES),
        list("SENT_BY", "MessageSentBy", SENT_BY),
        list("IMAGE_FORMATS", "ImageFormat", IMAGE_FORMATS),
    ]
    .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_names_are_the_constants() {
        assert_eq!(EVENT_TYPES.len(), 28);
        assert_eq!(DOCUMENT_TYPES.len(), 7);
        let event: EventType = serde_json::from_str("\"UNIT_DELETED\"").unwrap();
        assert_eq!(event, EventType::UnitDeleted);
        assert_eq!(
            serde_json::to_string(&DocumentType::PreMoveIn).unwrap(),
            "\"PRE-MOVE_IN\""
        );
        assert_eq!(EventType::ListingCreated.as_str(), EVENT_TYPES[0]);
        assert!(serde_json::from_str::<ImageFormat>("\"GIF\"").is_err());
        let js = javascript();
        assert!(js.contains("export const EVENT_TYPES = Object.freeze([\n  \"LISTING_CREATED\","));
        assert!(js.contains("\"PRE-MOVE_IN\""));
    }
}
