//! Webhook event delivery (`POST /_emulator/emit`).

use crate::errors::{ApiError, ApiResult};
use crate::host::Sent;
use crate::state::{AppState, DeliveryRecord};
use crate::util::lock;
use serde_json::{json, Value};
use std::sync::atomic::Ordering;
use url::{Host, Url};

/// Attempts per delivery (first try plus retries).
pub const MAX_ATTEMPTS: u32 = 3;
/// Largest `copies` of `POST /_emulator/emit` (forced redeliveries per webhook).
pub const MAX_COPIES: u32 = 20;

/// Why a delivery to a host that is not loopback is refused (the native host's policy).
pub const LOOPBACK_ONLY: &str =
    "refused: the emulator only delivers to loopback hosts (127.0.0.1, ::1, localhost)";

/// True if the URL's host is a loopback IP or `localhost`.
pub fn is_loopback(url: &str) -> bool {
    match Url::parse(url) {
        Ok(u) => match u.host() {
            Some(Host::Ipv4(ip)) => ip.is_loopback(),
            Some(Host::Ipv6(ip)) => ip.is_loopback(),
            Some(Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
            None => false,
        },
        Err(_) => false,
    }
}

/// Example `data` for an event type (used when the caller gives none).
pub fn sample_data(event_type: &str) -> Value {
    let listing = json!({
        "id": "listing-1",
        "property": {"id": "prop-1", "objectId": "OBJ-1", "type": "APARTMENT",
            "address": {"zip": "10115", "city": "Berlin", "streetNumber": "12", "streetName": "Invalidenstraße",
                "placeId": "place-1", "location": {"lat": 52.53, "lng": 13.38}}},
        "unit": {"id": "unit-1", "objectId": "UNIT-1", "name": "WE 01", "type": "APARTMENT"}
    });
    match event_type {
        "LISTING_CANDIDATE_APPLIED" => json!({"id": "cand-1", "candidateSource": "PORTAL",
            "email": "cand-1@example.com", "firstName": "Anna", "lastName": "Müller", "listing": listing}),
        "CANDIDATE_PARSED" => json!({"portalId": "portal-1", "externalListingId": "ext-1",
            "candidateSource": "PORTAL", "integrationType": "EMAIL", "email": "cand-1@example.com",
            "firstName": "Anna", "lastName": "Müller",
            "integration": {"id": "int-1", "listingId": "listing-1", "companyIntegrationId": "ci-1",
                "internalId": 42, "type": "EMAIL"}}),
        "LISTING_CANDIDATE_SCHEDULE_INVITED_VIEWING" => json!({"invitationId": "inv-1",
            "listing": listing, "candidate": {"id": "cand-1", "email": "cand-1@example.com"}}),
        "LISTING_CONTRACT_FLOW_STARTED" | "LISTING_CONTRACT_FLOW_SIGNED" => json!({"id": "flow-1",
            "metadata": {"unitId": "unit-1", "listingId": "listing-1", "candidateId": "cand-1"},
            "status": "STARTED", "contractFlowType": "VIRTUAL"}),
        _ => json!({"id": "object-1"}),
    }
}

struct Target {
    webhook_id: String,
    url: String,
    envelope: Value,
}

/// Builds envelopes and starts deliveries; returns the event uuid and the number of webhooks.
/// Each webhook gets `1 + copies` deliveries of the same envelope (same `uuid`), started at
/// once, each with its own attempts: forced redeliveries, as a service retrying on a lost
/// acknowledgement sends them.
pub fn dispatch(
    state: &AppState,
    event_type: &str,
    data: Option<Value>,
    token: Option<&str>,
    copies: u32,
) -> ApiResult<(String, usize)> {
    if let Some(t) = token {
        if !state.has_token(t) {
            return Err(ApiError::bad_request(format!("unknown `token` `{t}`")));
        }
    }
    let uuid = state.event_uuid();
    let data = data.unwrap_or_else(|| sample_data(event_type));
    let created_at = state.now_iso();
    let mut targets = Vec::new();
    {
        let accts = lock(&state.accounts);
        for a in accts.values() {
            if token.is_some_and(|t| t != a.token) {
                continue;
            }
            let envelope = json!({
                "uuid": uuid, "operation": event_type, "subdomain": a.subdomain,
                "language": "en", "createdAt": created_at, "data": data,
            });
            for w in a.webhooks.iter().filter(|w| w.event_type == event_type) {
                targets.push(Target {
                    webhook_id: w.id.clone(),
                    url: w.url.clone(),
                    envelope: envelope.clone(),
                });
            }
        }
    }
    let n = targets.len();
    let generation = state.generation();
    for t in targets {
        for copy in 0..=copies.min(MAX_COPIES) {
            // Counted from now, before the task first runs: `settled` never misses it.
            let in_flight = InFlight::start(state);
            let st = state.clone();
            let ev = event_type.to_string();
            let id = uuid.clone();
            let target = Target {
                webhook_id: t.webhook_id.clone(),
                url: t.url.clone(),
                envelope: t.envelope.clone(),
            };
            state.host.spawn(Box::pin(deliver(
                st, generation, id, ev, target, copy, in_flight,
            )));
        }
    }
    Ok((uuid, n))
}

/// Counts a delivery in flight for as long as it lives (every way `deliver` ends drops it).
struct InFlight(AppState);

impl InFlight {
    fn start(state: &AppState) -> InFlight {
        state.deliveries_in_flight.fetch_add(1, Ordering::SeqCst);
        InFlight(state.clone())
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.deliveries_in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

/// How often `settled` looks at the deliveries in flight, in milliseconds.
const SETTLE_STEP_MS: u64 = 5;

/// Waits until no delivery is in flight (every attempt of every delivery finished, retries
/// included), at most `timeout_ms`: the number still in flight then (0 when settled).
pub async fn settled(state: &AppState, timeout_ms: u64) -> u64 {
    let deadline = state.host.monotonic_ms().saturating_add(timeout_ms);
    loop {
        let pending = state.deliveries_in_flight.load(Ordering::SeqCst);
        if pending == 0 || state.host.monotonic_ms() >= deadline {
            return pending;
        }
        state.host.sleep(SETTLE_STEP_MS).await;
    }
}

async fn deliver(
    state: AppState,
    generation: u64,
    uuid: String,
    event_type: String,
    t: Target,
    copy: u32,
    _in_flight: InFlight,
) {
    let record = |attempt: u32, status: Option<u16>, error: Option<String>| {
        if state.generation() != generation {
            return false;
        }
        lock(&state.deliveries).push(DeliveryRecord {
            event_uuid: uuid.clone(),
            event_type: event_type.clone(),
            webhook_id: t.webhook_id.clone(),
            url: t.url.clone(),
            attempt,
            copy,
            status,
            error,
            at: state.now_iso(),
            body: t.envelope.clone(),
        });
        true
    };
    let body = t.envelope.to_string();
    let mut backoff = state.config.delivery_backoff_ms;
    for attempt in 1..=MAX_ATTEMPTS {
        let ok = match state.host.post_json(t.url.clone(), body.clone()).await {
            Sent::Status(s) => {
                let success = (200..300).contains(&s);
                let err = (!success).then(|| format!("receiver answered status {s}"));
                if !record(attempt, Some(s), err) {
                    return;
                }
                success
            }
            Sent::Failed(e) => {
                if !record(attempt, None, Some(format!("request failed: {e}"))) {
                    return;
                }
                false
            }
            Sent::Refused(e) => {
                record(attempt, None, Some(e));
                return;
            }
            Sent::NotSent => {
                record(attempt, None, None);
                return;
            }
        };
        if ok {
            return;
        }
        if attempt < MAX_ATTEMPTS {
            state.host.sleep(backoff).await;
            backoff = backoff.saturating_mul(2);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::sample_data;
    use crate::model::EVENT_TYPES;
    use estatekit_events::{check_data, operation, Delivery, Operation};
    use serde::Deserialize;
    use serde_json::{json, Value};

    /// The envelope `dispatch` builds.
    fn envelope(event_type: &str, data: Value) -> Value {
        json!({"uuid": "evt-1", "operation": event_type, "subdomain": "emu-1", "language": "en",
            "createdAt": "2026-11-25T10:07:28.052Z", "data": data})
    }

    #[test]
    fn the_event_types_are_the_receivers() {
        assert_eq!(EVENT_TYPES, estatekit_events::EVENT_TYPES);
    }

    #[test]
    fn every_sample_parses_as_the_receiver_checks_it() {
        for event_type in EVENT_TYPES {
            let body = envelope(event_type, sample_data(event_type));
            let delivery = Delivery::<Value>::deserialize(&body);
            let delivery = delivery.unwrap_or_else(|e| panic!("{event_type}: {e}"));
            assert_ne!(operation(&delivery.operation), Operation::UnknownType);
            if let Err(e) = check_data(&delivery.operation, &delivery.data) {
                panic!("{event_type}: sample data does not parse: {e}");
            }
            let typed = serde_json::from_value::<estatekit_events::WebhookEvent>(body);
            assert!(
                matches!(typed, Ok(estatekit_events::WebhookEvent::Known(_))),
                "{event_type}"
            );
        }
    }
}
