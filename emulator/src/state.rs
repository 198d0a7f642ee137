//! Shared application state.

use crate::config::{Config, READONLY_TOKEN};
use crate::faults::Fault;
use crate::host::Host;
use crate::model::{Document, Message, NewDocument, Webhook};
use crate::seed_data;
use crate::tokens::{Bearer, TokenStore};
use crate::util::{hash_str, iso_ms, lock, SplitMix64};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Maximum number of entries kept in the request log.
pub const REQUEST_LOG_CAP: usize = 500;

/// The webhook subdomain of a token's account (`emu-` and 8 hex digits, from the token's hash):
/// the `subdomain` of its event envelopes and the first segment of its documents'
/// `resourcePath`.
pub fn subdomain_of(token: &str) -> String {
    format!("emu-{:08x}", hash_str(token) >> 32)
}

/// One account (one token): its own data and rate-limit window.
#[derive(Debug)]
pub struct Account {
    /// The account's token.
    pub token: String,
    /// Account subdomain.
    pub subdomain: String,
    /// Company id.
    pub company_id: String,
    /// Partner id used in webhook records.
    pub partner_id: String,
    /// User id used as `connectedByUserId`.
    pub user_id: String,
    /// Messages (shared, immutable).
    pub messages: Arc<Vec<Message>>,
    /// Documents in insertion order, keyed by sequence number.
    pub documents: BTreeMap<u64, Document>,
    /// Document id -> sequence number.
    pub doc_index: HashMap<String, u64>,
    /// Next document sequence number.
    pub next_doc_seq: u64,
    /// Registered webhooks.
    pub webhooks: Vec<Webhook>,
    /// Id generator.
    pub rng: SplitMix64,
    /// Per-account rate-limit override.
    pub rate_limit: Option<u32>,
    /// Start of the current rate-limit window (the host's monotonic clock, ms).
    pub window_start: u64,
    /// Requests counted in the current window.
    pub window_count: u32,
}

impl Account {
    /// Builds a freshly seeded account.
    pub fn new(token: &str, config: &Config, messages: Arc<Vec<Message>>, now_ms: u64) -> Account {
        let h = hash_str(token);
        let mut ids = SplitMix64::new(h);
        let company_id = ids.uuid();
        let partner_id = ids.uuid();
        let user_id = ids.uuid();
        let subdomain = subdomain_of(token);
        let mut rng = SplitMix64::new(config.seed ^ 0xd0c5);
        let docs = seed_data::documents(&mut rng, config.seed_documents, &subdomain, &company_id);
        let mut acct = Account {
            token: token.to_string(),
            subdomain,
            company_id,
            partner_id,
            user_id,
            messages,
            documents: BTreeMap::new(),
            doc_index: HashMap::new(),
            next_doc_seq: 0,
            webhooks: Vec::new(),
            rng,
            rate_limit: None,
            window_start: now_ms,
            window_count: 0,
        };
        for d in docs {
            acct.insert_document(d);
        }
        acct
    }

    /// Adds a document.
    pub fn insert_document(&mut self, d: Document) {
        let seq = self.next_doc_seq;
        self.next_doc_seq += 1;
        self.doc_index.insert(d.id.clone(), seq);
        self.documents.insert(seq, d);
    }

    /// Stores a new document under `resource_path` (already checked, without slashes at its
    /// ends) and returns its record.
    pub fn add_document(&mut self, resource_path: &str, new: NewDocument, now: &str) -> Document {
        let id = self.rng.uuid();
        let doc = Document {
            resource_path: format!(
                "{}/{}/{}/{}",
                self.subdomain, self.company_id, resource_path, id
            ),
            id,
            title: new.title,
            company_id: self.company_id.clone(),
            doc_type: new.doc_type,
            tenant_id: new.tenant_id,
            unit_id: new.unit_id,
            property_id: new.property_id,
            property_group_id: new.property_group_id,
            candidate_id: new.candidate_id,
            size: new.bytes.len() as u64,
            mime_type: new.mime_type,
            created_at: now.to_string(),
            updated_at: now.to_string(),
            bytes: new.bytes,
        };
        self.insert_document(doc.clone());
        doc
    }

    /// Registers a webhook (the id drawn from the account's generator); returns its id.
    pub fn add_webhook(&mut self, event_type: String, url: String, now: &str) -> String {
        let id = self.rng.uuid();
        self.webhooks.push(Webhook {
            id: id.clone(),
            event_type,
            partner_id: self.partner_id.clone(),
            company_id: self.company_id.clone(),
            connected_by_user_id: self.user_id.clone(),
            url,
            created_at: now.to_string(),
            updated_at: now.to_string(),
            deleted_at: None,
        });
        id
    }

    /// Looks a document up by id.
    pub fn document(&self, id: &str) -> Option<&Document> {
        self.doc_index
            .get(id)
            .and_then(|seq| self.documents.get(seq))
    }

    /// Removes a document; true if it existed.
    pub fn remove_document(&mut self, id: &str) -> bool {
        match self.doc_index.remove(id) {
            Some(seq) => self.documents.remove(&seq).is_some(),
            None => false,
        }
    }
}

/// One entry of `GET /_emulator/requests`.
#[derive(Serialize, Clone, Debug)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct RequestRecord {
    /// HTTP method.
    pub method: String,
    /// Raw (still percent-encoded) path.
    pub path: String,
    /// Raw query string, if any.
    #[cfg_attr(feature = "ts", tsify(type = "string | null"))]
    pub query: Option<String>,
    /// Host header.
    #[cfg_attr(feature = "ts", tsify(type = "string | null"))]
    pub host: Option<String>,
    /// Origin header.
    #[cfg_attr(feature = "ts", tsify(type = "string | null"))]
    pub origin: Option<String>,
    /// Whether an Authorization header was present (its value is never recorded).
    pub has_authorization: bool,
    /// Content-Type header.
    #[cfg_attr(feature = "ts", tsify(type = "string | null"))]
    pub content_type: Option<String>,
    /// Content-Length of the request body (0 when absent).
    pub body_length: u64,
}

/// One webhook delivery attempt.
#[derive(Serialize, Clone, Debug)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct DeliveryRecord {
    /// Event uuid.
    pub event_uuid: String,
    /// Event type.
    #[serde(rename = "type")]
    #[cfg_attr(
        feature = "ts",
        tsify(type = "import(\"./estatekit_wasm.js\").EventType")
    )]
    pub event_type: String,
    /// Webhook id.
    pub webhook_id: String,
    /// Target URL.
    pub url: String,
    /// Attempt number (1-based), counted per copy.
    pub attempt: u32,
    /// Which delivery of the event to this webhook: 0 for the delivery itself, 1..=K for the
    /// forced redeliveries asked by `copies`.
    pub copy: u32,
    /// Response status, if a response arrived (none when the host records without sending).
    #[cfg_attr(feature = "ts", tsify(type = "number | null"))]
    pub status: Option<u16>,
    /// Error text, if the attempt failed.
    #[cfg_attr(feature = "ts", tsify(type = "string | null"))]
    pub error: Option<String>,
    /// Attempt time.
    pub at: String,
    /// The event envelope sent (`uuid`, `operation`, `subdomain`, `language`, `createdAt`, `data`).
    #[cfg_attr(
        feature = "ts",
        tsify(
            type = "{ uuid: string; operation: import(\"./estatekit_wasm.js\").EventType; subdomain: string; language: string; createdAt: string; data: unknown }"
        )
    )]
    pub body: serde_json::Value,
}

/// One request received by the sink.
#[derive(Serialize, Clone, Debug)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct SinkEntry {
    /// Sink name from the path.
    pub name: String,
    /// Body, parsed as JSON when possible, else text.
    #[cfg_attr(feature = "ts", tsify(type = "unknown"))]
    pub body: serde_json::Value,
    /// Receive time.
    pub received_at: String,
}

/// Everything behind the shared state handle.
pub struct Inner {
    /// Configuration.
    pub config: Config,
    /// Shared seeded messages.
    pub messages: Arc<Vec<Message>>,
    /// Accounts by token.
    pub accounts: Mutex<HashMap<String, Account>>,
    /// Tokens in registration order.
    pub token_order: Mutex<Vec<String>>,
    /// Default per-minute limit for accounts without override.
    pub default_rate_limit: Mutex<u32>,
    /// Pending faults, oldest first.
    pub faults: Mutex<Vec<Fault>>,
    /// Counters: token ("" when none) -> route key -> count.
    pub counters: Mutex<HashMap<String, HashMap<String, u64>>>,
    /// Last requests.
    pub requests: Mutex<VecDeque<RequestRecord>>,
    /// Delivery attempts.
    pub deliveries: Mutex<Vec<DeliveryRecord>>,
    /// Sink entries.
    pub sink: Mutex<Vec<SinkEntry>>,
    /// Public base URL of the main listener.
    pub base_url: Mutex<String>,
    /// Base URL of the second origin, if any.
    pub second_origin: Mutex<Option<String>>,
    /// Bumped by reset, so stale deliveries are not recorded.
    pub generation: AtomicU64,
    /// Deliveries started and not finished (an attempt under way or a retry waiting).
    pub deliveries_in_flight: AtomicU64,
    /// Event uuid generator.
    pub event_rng: Mutex<SplitMix64>,
    /// The next `x-request-id` number.
    pub request_ids: AtomicU64,
    /// The host: clocks, timers, background tasks, delivery, static files.
    pub host: Arc<dyn Host>,
    /// OAuth clients, users and the tokens issued to them.
    pub oauth: Mutex<TokenStore>,
}

/// The seed of the events' uuids: the one asked for, else 64 random bits from the host (the
/// clock's, should its generator fail), so that two runs never emit the same uuids.
fn event_seed(config: &Config, host: &dyn Host) -> u64 {
    if let Some(seed) = config.event_seed {
        return seed ^ 0xe7e7;
    }
    let mut bytes = [0u8; 8];
    match host.random(&mut bytes) {
        Ok(()) => u64::from_le_bytes(bytes),
        Err(_) => host.unix_ms().unsigned_abs() ^ host.monotonic_ms().rotate_left(32),
    }
}

/// Cheap cloneable handle to the state.
#[derive(Clone)]
pub struct AppState(pub Arc<Inner>);

impl std::ops::Deref for AppState {
    type Target = Inner;
    fn deref(&self) -> &Inner {
        &self.0
    }
}

impl AppState {
    /// Creates the state with all configured accounts seeded, served by `host`.
    pub fn new(config: Config, host: Arc<dyn Host>) -> AppState {
        let messages = Arc::new(seed_data::messages(config.seed, config.seed_messages));
        let now = host.monotonic_ms();
        let mut order: Vec<String> = config.tokens.clone();
        // Every user's account exists (a user naming a new token adds its account).
        let users: Vec<_> = config
            .users
            .iter()
            .map(|u| (u.clone(), config.account_of(u)))
            .collect();
        for (_, account) in &users {
            if account != READONLY_TOKEN && !order.contains(account) {
                order.push(account.clone());
            }
        }
        order.push(READONLY_TOKEN.to_string());
        let oauth = TokenStore::new(config.oauth_clients.clone(), users);
        let accounts = order
            .iter()
            .map(|t| (t.clone(), Account::new(t, &config, messages.clone(), now)))
            .collect();
        let base = format!("http://{}:{}", config.host, config.port);
        AppState(Arc::new(Inner {
            default_rate_limit: Mutex::new(config.rate_limit),
            event_rng: Mutex::new(SplitMix64::new(event_seed(&config, host.as_ref()))),
            config,
            messages,
            accounts: Mutex::new(accounts),
            token_order: Mutex::new(order),
            faults: Mutex::new(Vec::new()),
            counters: Mutex::new(HashMap::new()),
            requests: Mutex::new(VecDeque::new()),
            deliveries: Mutex::new(Vec::new()),
            deliveries_in_flight: AtomicU64::new(0),
            sink: Mutex::new(Vec::new()),
            base_url: Mutex::new(base),
            second_origin: Mutex::new(None),
            generation: AtomicU64::new(0),
            request_ids: AtomicU64::new(1),
            host,
            oauth: Mutex::new(oauth),
        }))
    }

    /// The current time as ISO 8601 with milliseconds and `Z` (the host's wall clock).
    pub fn now_iso(&self) -> String {
        iso_ms(self.host.unix_ms())
    }

    /// The host's monotonic clock, in ms.
    pub fn now_ms(&self) -> u64 {
        self.host.monotonic_ms()
    }

    /// The next `x-request-id` value (`req-<n>`, counted per emulator).
    pub fn next_request_id(&self) -> String {
        format!("req-{}", self.request_ids.fetch_add(1, Ordering::Relaxed))
    }

    /// Takes one use of the oldest fault matching the request, if any.
    pub fn take_fault(&self, method: &str, path: &str, token: Option<&str>) -> Option<Fault> {
        let mut faults = lock(&self.faults);
        let pos = faults.iter().position(|f| f.matches(method, path, token))?;
        let f = faults.get_mut(pos)?;
        let left = f.times.unwrap_or(1).saturating_sub(1);
        f.times = Some(left);
        let taken = f.clone();
        if left == 0 {
            faults.remove(pos);
        }
        Some(taken)
    }

    /// True if the token belongs to an account.
    pub fn has_token(&self, token: &str) -> bool {
        lock(&self.accounts).contains_key(token)
    }

    /// Runs `f` on the token's account (None if unknown).
    pub fn with_account<R>(&self, token: &str, f: impl FnOnce(&mut Account) -> R) -> Option<R> {
        let mut accts = lock(&self.accounts);
        accts.get_mut(token).map(f)
    }

    /// The first configured token's (the default account's) webhook subdomain.
    pub fn default_subdomain(&self) -> String {
        let order = lock(&self.token_order);
        subdomain_of(order.first().map(String::as_str).unwrap_or(READONLY_TOKEN))
    }

    /// Creates or reseeds the account of a token.
    pub fn create_account(&self, token: &str) {
        let acct = Account::new(token, &self.config, self.messages.clone(), self.now_ms());
        lock(&self.accounts).insert(token.to_string(), acct);
        let mut order = lock(&self.token_order);
        if !order.iter().any(|t| t == token) {
            order.push(token.to_string());
        }
    }

    /// Reseeds every account and clears faults, counters, requests, deliveries and sink.
    pub fn reset(&self) {
        self.generation.fetch_add(1, Ordering::SeqCst);
        let tokens = lock(&self.token_order).clone();
        let now = self.now_ms();
        let fresh: HashMap<String, Account> = tokens
            .iter()
            .map(|t| {
                (
                    t.clone(),
                    Account::new(t, &self.config, self.messages.clone(), now),
                )
            })
            .collect();
        *lock(&self.accounts) = fresh;
        *lock(&self.default_rate_limit) = self.config.rate_limit;
        lock(&self.faults).clear();
        lock(&self.counters).clear();
        lock(&self.requests).clear();
        lock(&self.deliveries).clear();
        lock(&self.sink).clear();
        lock(&self.oauth).reset_counts();
    }

    /// What a bearer token reaches: a fixed token's account, or an issued access token's
    /// (live or expired).
    pub fn resolve_bearer(&self, token: &str) -> Bearer {
        if self.has_token(token) {
            return Bearer::Fixed(token.to_string());
        }
        let now = self.now_ms();
        lock(&self.oauth).access(token, now)
    }

    /// Appends to the request log (bounded).
    pub fn log_request(&self, r: RequestRecord) {
        let mut q = lock(&self.requests);
        q.push_back(r);
        while q.len() > REQUEST_LOG_CAP {
            q.pop_front();
        }
    }

    /// Counts an API request.
    pub fn count(&self, token: &str, key: String) {
        let mut c = lock(&self.counters);
        *c.entry(token.to_string())
            .or_default()
            .entry(key)
            .or_insert(0) += 1;
    }

    /// Current reset generation.
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::SeqCst)
    }

    /// A fresh event uuid.
    pub fn event_uuid(&self) -> String {
        lock(&self.event_rng).uuid()
    }
}
