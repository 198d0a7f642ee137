//! `estatekit/auth`'s inputs and outputs: the token provider's options, the grants' inputs, the
//! token set they give, and the provider's events. Servers only: the module of the package's
//! server entry is built with the `auth` feature, the browsers' module has none of this.

use super::{Callback, HandleKind, Input, JsHandle, Signal};
use crate::error::ApiErrorKind;
use serde::{Deserialize, Serialize};
#[cfg(feature = "js")]
use tsify::Tsify;
#[cfg(feature = "js")]
use wasm_bindgen::JsValue;

/// A `Store`: an object with the asynchronous methods the provider uses.
pub enum StoreKind {}
impl HandleKind for StoreKind {
    #[cfg(feature = "js")]
    fn accepts(value: &JsValue) -> bool {
        value.is_object()
            && ["get", "set", "claim", "release"].iter().all(|name| {
                js_sys::Reflect::get(value, &JsValue::from_str(name)).is_ok_and(|f| f.is_function())
            })
    }
    const EXPECTED: &'static str = "a Store (an object with get, set, claim and release methods)";
}

/// The `store` option.
pub type StoreHandle = JsHandle<StoreKind>;

/// Options of `createTokenProvider`. Give `username` and `password`, or a `refreshToken`, or a
/// `store` that already holds a token set.
#[derive(Clone, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct TokenProviderOptions {
    /// The account's base URL, e.g. `https://acme.example.com` (https, except for loopback hosts).
    pub base_url: String,
    /// The OAuth client's id.
    pub client_id: String,
    /// The OAuth client's secret (servers only: it must never reach a browser).
    pub client_secret: String,
    /// The user signed in with the password grant, when no refresh token is at hand.
    #[cfg_attr(feature = "js", tsify(optional))]
    pub username: Option<String>,
    /// That user's password.
    #[cfg_attr(feature = "js", tsify(optional))]
    pub password: Option<String>,
    /// A refresh token to start from (e.g. from your own sign-in); a stored one wins.
    #[cfg_attr(feature = "js", tsify(optional))]
    pub refresh_token: Option<String>,
    /// Where the token set is kept, shared by every provider of the same base URL, client and
    /// user (default: this provider's memory). See `estatekit/store`.
    #[cfg_attr(feature = "js", tsify(optional, type = "import(\"./store.js\").Store"))]
    pub store: Option<StoreHandle>,
    /// How long before the access token expires it is refreshed, in milliseconds (default
    /// 60000; at most a quarter of the token's lifetime, as `createUserTokens`'s).
    #[cfg_attr(feature = "js", tsify(optional))]
    pub refresh_before_ms: Option<u32>,
    /// Timeout of one grant request in milliseconds (default 30000; 0 = none).
    #[cfg_attr(feature = "js", tsify(optional))]
    pub timeout_ms: Option<u32>,
    /// The scope asked for by the password grant (default `offline_access *`).
    #[cfg_attr(feature = "js", tsify(optional))]
    pub scope: Option<String>,
    /// Sends every grant request instead of the global `fetch` (tests, proxies).
    #[cfg_attr(
        feature = "js",
        tsify(
            optional,
            type = "(input: Request, init?: RequestInit) => Promise<Response>"
        )
    )]
    pub fetch: Option<Callback>,
    /// Told about grants and the store (for logs and metrics); never given a secret.
    #[cfg_attr(feature = "js", tsify(optional, type = "(event: TokenEvent) => void"))]
    pub on_event: Option<Callback>,
}

impl Input for TokenProviderOptions {}

/// The OAuth client a low-level grant is made for, and how the request is sent.
#[derive(Clone, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct GrantOptions {
    /// The account's base URL (https, except for loopback hosts).
    pub base_url: String,
    /// The OAuth client's id.
    pub client_id: String,
    /// The OAuth client's secret.
    pub client_secret: String,
    /// The scope asked for by the password grant (default `offline_access *`).
    #[cfg_attr(feature = "js", tsify(optional))]
    pub scope: Option<String>,
    /// Timeout of the request in milliseconds (default 30000; 0 = none).
    #[cfg_attr(feature = "js", tsify(optional))]
    pub timeout_ms: Option<u32>,
    /// Aborts the request; the grant then rejects with kind `aborted`.
    #[cfg_attr(feature = "js", tsify(optional, type = "AbortSignal"))]
    pub signal: Option<Signal>,
    /// Sends the request instead of the global `fetch`.
    #[cfg_attr(
        feature = "js",
        tsify(
            optional,
            type = "(input: Request, init?: RequestInit) => Promise<Response>"
        )
    )]
    pub fetch: Option<Callback>,
}

impl Input for GrantOptions {}

/// A user's sign-in, for `passwordGrant`.
#[derive(Clone, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct PasswordCredentials {
    /// The user's name (an e-mail address).
    pub username: String,
    /// The user's password.
    pub password: String,
}

impl Input for PasswordCredentials {}

/// What the sign-in dialog gave back, for `authorizationCodeGrant`.
#[derive(Clone, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct AuthorizationCode {
    /// The `code` the dialog's redirect carried.
    pub code: String,
    /// The `redirect_uri` the dialog was opened with.
    pub redirect_uri: String,
}

impl Input for AuthorizationCode {}

/// Options of `createUserTokens`: the OAuth client whose signed-in users' token sets `fresh`
/// refreshes.
#[derive(Clone, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct UserTokensOptions {
    /// The account's base URL, e.g. `https://acme.example.com` (https, except for loopback hosts).
    pub base_url: String,
    /// The OAuth client's id (the one the users signed in with).
    pub client_id: String,
    /// The OAuth client's secret (servers only: it must never reach a browser).
    pub client_secret: String,
    /// Where refreshes are claimed and successors kept, shared by every process of the app
    /// (default: this process's memory). See `estatekit/store`.
    #[cfg_attr(feature = "js", tsify(optional, type = "import(\"./store.js\").Store"))]
    pub store: Option<StoreHandle>,
    /// How long before `expiresAt` a set is refreshed, in milliseconds (default 60000; at most a
    /// quarter of the token's lifetime where the set says it: `lifetimeMs`).
    #[cfg_attr(feature = "js", tsify(optional))]
    pub refresh_before_ms: Option<u32>,
    /// Timeout of one refresh request in milliseconds (default 30000; must be positive: 0 is
    /// refused, a refresh shared by every caller and process must end).
    #[cfg_attr(feature = "js", tsify(optional))]
    pub timeout_ms: Option<u32>,
    /// How long the successor of a rotated refresh token is kept (under a hash of the old
    /// token), in milliseconds (default 900000, 15 minutes): it must cover the time until the
    /// session that still holds the old set writes the new one back.
    #[cfg_attr(feature = "js", tsify(optional))]
    pub successor_retention_ms: Option<u32>,
    /// Sends every refresh request instead of the global `fetch` (tests, proxies).
    #[cfg_attr(
        feature = "js",
        tsify(
            optional,
            type = "(input: Request, init?: RequestInit) => Promise<Response>"
        )
    )]
    pub fetch: Option<Callback>,
    /// Told about refreshes, successors and the store (for logs and metrics); never given a
    /// secret.
    #[cfg_attr(feature = "js", tsify(optional, type = "(event: TokenEvent) => void"))]
    pub on_event: Option<Callback>,
}

impl Input for UserTokensOptions {}

/// The token set a session holds, as `fresh` takes it (a `TokenSet`, or the same fields kept in
/// a session; other keys are ignored). Read by `web::auth` field by field, so that no error
/// quotes a token. Its fields are JavaScript values as given: with the `js` feature only.
#[cfg(feature = "js")]
#[derive(Deserialize)]
#[cfg_attr(feature = "js", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct HeldTokenSet {
    /// The access token.
    #[serde(with = "serde_wasm_bindgen::preserve")]
    #[cfg_attr(feature = "js", tsify(type = "string"))]
    pub access_token: JsValue,
    /// The refresh token; without one, `fresh` can only ask for a new sign-in.
    #[serde(default, with = "serde_wasm_bindgen::preserve")]
    #[cfg_attr(feature = "js", tsify(optional, type = "string | null"))]
    pub refresh_token: JsValue,
    /// When the access token expires, in milliseconds since the Unix epoch (never seconds).
    #[serde(with = "serde_wasm_bindgen::preserve")]
    #[cfg_attr(feature = "js", tsify(type = "number"))]
    pub expires_at: JsValue,
    /// The token type (default `Bearer`).
    #[serde(default, with = "serde_wasm_bindgen::preserve")]
    #[cfg_attr(feature = "js", tsify(optional, type = "string"))]
    pub token_type: JsValue,
    /// The access token's lifetime when the set was obtained, in milliseconds (`TokenSet`'s
    /// `lifetimeMs`, kept with the set): the refresh margin is at most a quarter of it. Without
    /// it the margin is `refreshBeforeMs` as given.
    #[serde(default, with = "serde_wasm_bindgen::preserve")]
    #[cfg_attr(feature = "js", tsify(optional, type = "number | null"))]
    pub lifetime_ms: JsValue,
}

/// The marker of an `ApiError` that only a new sign-in can cure: the service refused the
/// refresh token (`invalid_grant`), or the set has none. Never set on network, timeout, 5xx or
/// store failures.
#[derive(Clone, Copy, Debug, Serialize)]
#[cfg_attr(feature = "js", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct SignInRequired {
    /// Always `true`.
    #[cfg_attr(feature = "js", tsify(type = "true"))]
    pub sign_in_required: bool,
}

/// The tokens a grant gives.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct TokenSet {
    /// The bearer access token.
    pub access_token: String,
    /// The refresh token: the one the answer carried, else (for a refresh) the one used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "js", tsify(optional))]
    pub refresh_token: Option<String>,
    /// When the access token expires, in milliseconds since the Unix epoch: the time the grant
    /// was sent plus the answer's `expires_in`.
    pub expires_at: f64,
    /// The answer's `token_type` (`Bearer`).
    pub token_type: String,
    /// How long the access token was to live when the set was obtained, in milliseconds (the
    /// answer's `expires_in`): the refresh margin is at most a quarter of it. Keep it with the
    /// rest of the set (a session stores the whole set); a set without it (an older session, a
    /// sign-in library's set whose issue time is unknown) is refreshed `refreshBeforeMs` before
    /// it expires.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "js", tsify(optional))]
    pub lifetime_ms: Option<f64>,
}

/// How long before `expires_at` a token set is due for refreshing: `refresh_before_ms`, but never
/// more than a quarter of the token's lifetime where that is known (a positive finite number),
/// so that the default margin refreshes short-lived tokens about once per lifetime. The one rule
/// of `createTokenProvider` and `createUserTokens().fresh`.
pub fn refresh_margin(refresh_before_ms: f64, lifetime_ms: Option<f64>) -> f64 {
    match lifetime_ms {
        Some(lifetime) if lifetime.is_finite() && lifetime > 0.0 => {
            refresh_before_ms.min(lifetime / 4.0)
        }
        _ => refresh_before_ms,
    }
}

/// A grant of the token endpoint: a row of the operation table (vocab/src/operations.rs).
pub use estatekit_vocab::operations::GrantType;

/// What the provider did with its store when the store failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub enum StoreOperation {
    /// Reading the token set.
    Get,
    /// Writing the token set.
    Set,
    /// Taking the claim to refresh.
    Claim,
    /// Releasing the claim.
    Release,
}

/// What a token provider's `onEvent` is told. No event carries a token, password or secret.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(Tsify))]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum TokenEvent {
    /// A grant request was answered (or failed).
    #[serde(rename_all = "camelCase")]
    Grant {
        /// Which grant.
        grant: GrantType,
        /// Whether it gave a token set.
        ok: bool,
        /// The failure's kind, when it failed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "js", tsify(optional))]
        kind: Option<ApiErrorKind>,
        /// The HTTP status, when the service answered (whether the grant gave a set or not).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "js", tsify(optional))]
        status: Option<u16>,
        /// Time of the request, in milliseconds.
        duration_ms: f64,
    },
    /// The token set was read from the store, where another provider (another process, or an
    /// earlier run) had put it.
    #[serde(rename_all = "camelCase")]
    Shared {
        /// When its access token expires (milliseconds since the Unix epoch).
        expires_at: f64,
    },
    /// `fresh` was given a set whose refresh token had already been rotated, and found the
    /// newest set down the chain of successors (in this process or the store).
    #[serde(rename_all = "camelCase")]
    Successor {
        /// Links followed from the given refresh token to the newest set.
        hops: u32,
        /// When the newest set's access token expires (milliseconds since the Unix epoch).
        expires_at: f64,
    },
    /// The store failed or did not answer in time; the provider went on without it (with its
    /// cached access token while that is valid, else refreshing by itself).
    #[serde(rename_all = "camelCase")]
    StoreUnavailable {
        /// What it asked of the store.
        operation: StoreOperation,
        /// Why it failed.
        reason: String,
    },
}

/// What the internal observer of one round of getting tokens (estatekit/otel's, reached through
/// the JavaScript wrapper) is told besides that round's [`TokenEvent`]s. Not part of the
/// package's types; no signal carries a token, password or secret.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum TokenSignal {
    /// Another process holds the store's claim to refresh: the round waits for the token set
    /// that process stores (or for the claim, once it is free). Told once per wait.
    StoreWait,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::fields_of;

    #[test]
    fn inputs_list_their_keys() {
        assert_eq!(
            fields_of::<TokenProviderOptions>(),
            [
                "baseUrl",
                "clientId",
                "clientSecret",
                "username",
                "password",
                "refreshToken",
                "store",
                "refreshBeforeMs",
                "timeoutMs",
                "scope",
                "fetch",
                "onEvent"
            ]
        );
        assert_eq!(fields_of::<PasswordCredentials>(), ["username", "password"]);
        assert_eq!(fields_of::<AuthorizationCode>(), ["code", "redirectUri"]);
    }

    #[test]
    fn the_margin_is_at_most_a_quarter_of_a_known_lifetime() {
        // The default 60 s on 5 s tokens: 1.25 s, so a token serves 3.75 s of its 5.
        assert_eq!(refresh_margin(60_000.0, Some(5_000.0)), 1_250.0);
        // An hour's token: the margin as given.
        assert_eq!(refresh_margin(60_000.0, Some(3_600_000.0)), 60_000.0);
        // A smaller margin than the quarter is kept.
        assert_eq!(refresh_margin(1_000.0, Some(5_000.0)), 1_000.0);
        // Unknown (absent, zero, negative, not finite): the margin as given.
        for unknown in [
            None,
            Some(0.0),
            Some(-5.0),
            Some(f64::NAN),
            Some(f64::INFINITY),
        ] {
            assert_eq!(refresh_margin(60_000.0, unknown), 60_000.0);
        }
    }

    #[test]
    fn a_set_keeps_its_lifetime_through_json_and_reads_without_it() {
        let set = TokenSet {
            access_token: "a".into(),
            refresh_token: None,
            expires_at: 1_790_000_005_000.0,
            token_type: "Bearer".into(),
            lifetime_ms: Some(5_000.0),
        };
        let value = serde_json::to_value(&set).unwrap();
        assert_eq!(value["lifetimeMs"], 5_000.0);
        assert_eq!(serde_json::from_value::<TokenSet>(value).unwrap(), set);
        // A set stored before the field existed.
        let old: TokenSet = serde_json::from_value(
            serde_json::json!({"accessToken": "a", "expiresAt": 1.0, "tokenType": "Bearer"}),
        )
        .unwrap();
        assert_eq!(old.lifetime_ms, None);
    }

    #[test]
    fn events_name_no_secret_and_read_as_documented() {
        let event = TokenEvent::Grant {
            grant: GrantType::RefreshToken,
            ok: false,
            kind: Some(ApiErrorKind::Forbidden),
            status: Some(403),
            duration_ms: 12.5,
        };
        assert_eq!(
            serde_json::to_value(&event).unwrap(),
            serde_json::json!({"type": "grant", "grant": "refresh_token", "ok": false, "kind": "forbidden", "status": 403, "durationMs": 12.5})
        );
        let event = TokenEvent::StoreUnavailable {
            operation: StoreOperation::Claim,
            reason: "timed out after 1000 ms".into(),
        };
        assert_eq!(
            serde_json::to_value(&event).unwrap(),
            serde_json::json!({"type": "storeUnavailable", "operation": "claim", "reason": "timed out after 1000 ms"})
        );
        assert_eq!(
            serde_json::to_value(TokenSignal::StoreWait).unwrap(),
            serde_json::json!({"type": "storeWait"})
        );
    }
}
