//! The token endpoint (`POST {base}/accounts/oauth/token`, JSON, RFC 6749 grants as the service
//! takes them): the request of each grant, and the check of its answer into a [`TokenSet`].
//! Compiled with the `auth` feature (the server entry's module) and in the unit tests.

use super::{check_token, BaseUrl, HttpRequest, JsonBody, RequestBody};
use crate::error::Error;
use crate::model::auth::{GrantType, TokenSet};
use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use std::fmt;

/// The scope the password grant asks for unless told otherwise (what the vendor documents).
pub const DEFAULT_SCOPE: &str = "offline_access *";
/// An access token's lifetime when the answer gives no `expires_in` (the service's default).
pub const DEFAULT_EXPIRES_IN_S: f64 = 3600.0;

/// A grant and what it sends besides the client's credentials.
#[derive(Clone, Copy, Debug)]
pub enum Grant<'a> {
    /// `grant_type: "password"`.
    Password {
        /// The user.
        username: &'a str,
        /// The password.
        password: &'a str,
        /// The scope asked for.
        scope: &'a str,
    },
    /// `grant_type: "refresh_token"`.
    Refresh {
        /// The refresh token.
        refresh_token: &'a str,
    },
    /// `grant_type: "authorization_code"`.
    AuthorizationCode {
        /// The dialog's code.
        code: &'a str,
        /// The dialog's redirect URI.
        redirect_uri: &'a str,
    },
}

impl Grant<'_> {
    /// Which grant this is.
    pub fn kind(&self) -> GrantType {
        match self {
            Grant::Password { .. } => GrantType::Password,
            Grant::Refresh { .. } => GrantType::RefreshToken,
            Grant::AuthorizationCode { .. } => GrantType::AuthorizationCode,
        }
    }

    /// The operation's name in error messages.
    pub fn operation(&self) -> &'static str {
        self.kind().phrase()
    }

    /// The secrets this grant sends (hidden in whatever estatekit writes about it).
    pub fn secrets(&self) -> Vec<&str> {
        match *self {
            Grant::Password { password, .. } => vec![password],
            Grant::Refresh { refresh_token } => vec![refresh_token],
            Grant::AuthorizationCode { code, .. } => vec![code],
        }
    }
}

/// The JSON body of a grant request (field names as RFC 6749 and the service spell them).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GrantBody {
    grant_type: &'static str,
    client_id: String,
    client_secret: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    username: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    password: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    scope: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    refresh_token: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    redirect_uri: Option<String>,
}

/// Refuses an empty required text (the message names the field, never its value).
fn required(field: &str, value: &str) -> Result<(), Error> {
    if value.is_empty() {
        return Err(Error::invalid(field, "must not be empty"));
    }
    Ok(())
}

/// `POST {base}/accounts/oauth/token` for `grant` by the client `client_id`/`client_secret`.
/// Never marked safe to repeat: whether a grant is repeated is the provider's decision.
pub fn grant_request(
    base: &BaseUrl,
    client_id: &str,
    client_secret: &str,
    grant: Grant<'_>,
) -> Result<HttpRequest, Error> {
    required("options.clientId", client_id)?;
    required("options.clientSecret", client_secret)?;
    let mut body = GrantBody {
        grant_type: "",
        client_id: client_id.to_owned(),
        client_secret: client_secret.to_owned(),
        username: None,
        password: None,
        scope: None,
        refresh_token: None,
        code: None,
        redirect_uri: None,
    };
    match grant {
        Grant::Password {
            username,
            password,
            scope,
        } => {
            required("credentials.username", username)?;
            required("credentials.password", password)?;
            body.username = Some(username.to_owned());
            body.password = Some(password.to_owned());
            body.scope = Some(scope.to_owned());
        }
        Grant::Refresh { refresh_token } => {
            required("refreshToken", refresh_token)?;
            body.refresh_token = Some(refresh_token.to_owned());
        }
        Grant::AuthorizationCode { code, redirect_uri } => {
            required("code.code", code)?;
            required("code.redirectUri", redirect_uri)?;
            body.code = Some(code.to_owned());
            body.redirect_uri = Some(redirect_uri.to_owned());
        }
    }
    body.grant_type = grant.kind().name();
    Ok(HttpRequest::to(grant.kind(), base).carrying(RequestBody::Json(JsonBody::Grant(body))))
}

/// Whether an error is the service refusing the grant itself (`invalid_grant`: a wrong
/// password, or a refresh token that is unknown, expired or deleted by the 50-token cap). Only a
/// client error counts (400 per RFC 6749, 401, or the service's documented 403): a 5xx carrying
/// `invalid_grant` is the service failing, not a verdict on the grant.
pub fn is_invalid_grant(error: &Error) -> bool {
    matches!(
        error,
        Error::Status { status: 400 | 401 | 403, code: Some(code), .. } if code == "invalid_grant"
    )
}

/// The error of a refresh token the service refused when there is no password to fall back on.
pub fn refresh_rejected(mut error: Error) -> Error {
    if let Error::Status { message, .. } = &mut error {
        let before = message.take().map(|m| format!("{m}; ")).unwrap_or_default();
        *message = Some(format!(
            "{before}the refresh token was rejected: a new sign-in is needed (give username and password, or a new refreshToken)"
        ));
    }
    error
}

/// The smallest `expiresAt` read as milliseconds: 10^11 ms is March 1973, while 10^11 seconds is
/// in the year 5138, so a smaller value can only be seconds (what `expires_at` of an OAuth
/// library's account holds) or nonsense.
pub const MIN_EXPIRES_AT_MS: f64 = 1e11;

/// Checks a held token set's `expiresAt` (milliseconds since the Unix epoch): the reason it is
/// refused, in the caller's words, or `None`.
pub fn expires_at_problem(expires_at: f64) -> Option<String> {
    if !expires_at.is_finite() || expires_at < 0.0 {
        return Some("must be a finite number of milliseconds since the Unix epoch".into());
    }
    if expires_at < MIN_EXPIRES_AT_MS {
        return Some(format!(
            "{expires_at} can only be seconds: it must be milliseconds since the Unix epoch (toTokenSet(account) converts an OAuth library's expires_at)"
        ));
    }
    None
}

/// The name a refresh token is known by outside the token endpoint (store keys, the in-process
/// single flight): SHA-256 of it, in hexadecimal. The token itself is never a key.
pub fn token_hash(refresh_token: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(refresh_token.as_bytes())
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// The error of a refresh token the service refused when only a new sign-in can help (the
/// signed-in user's tokens, `fresh`).
pub fn sign_in_rejected(mut error: Error) -> Error {
    if let Error::Status { message, .. } = &mut error {
        let before = message.take().map(|m| format!("{m}; ")).unwrap_or_default();
        *message = Some(format!(
            "{before}the refresh token was rejected (unknown, expired, already used, or deleted by the cap of 50 per client and user): the user must sign in again"
        ));
    }
    error
}

/// A number of seconds: a JSON number, or a string holding one (some servers send
/// `"expires_in": "3600"`); it must be finite and positive.
struct Seconds(f64);

impl<'de> Deserialize<'de> for Seconds {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Seconds;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a positive number of seconds")
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Seconds, E> {
                if v.is_finite() && v > 0.0 {
                    Ok(Seconds(v))
                } else {
                    Err(E::invalid_value(de::Unexpected::Float(v), &self))
                }
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Seconds, E> {
                self.visit_f64(v as f64)
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Seconds, E> {
                self.visit_f64(v as f64)
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Seconds, E> {
                match v.trim().parse::<f64>() {
                    Ok(n) => self.visit_f64(n),
                    Err(_) => Err(E::invalid_value(de::Unexpected::Str(v), &self)),
                }
            }
        }
        deserializer.deserialize_any(V)
    }
}

/// A string that may be a secret (a token): a value of another type is refused without being
/// quoted (serde's own message would quote a number or a boolean).
struct SecretText(String);

impl<'de> Deserialize<'de> for SecretText {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;
        impl<'v> Visitor<'v> for V {
            type Value = SecretText;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<SecretText, E> {
                Ok(SecretText(v.to_owned()))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<SecretText, E> {
                Err(E::custom("must be a string"))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<SecretText, E> {
                Err(E::custom("must be a string"))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<SecretText, E> {
                Err(E::custom("must be a string"))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<SecretText, E> {
                Err(E::custom("must be a string"))
            }
            fn visit_unit<E: de::Error>(self) -> Result<SecretText, E> {
                Err(E::custom("must be a string"))
            }
            fn visit_seq<A: de::SeqAccess<'v>>(self, _: A) -> Result<SecretText, A::Error> {
                Err(de::Error::custom("must be a string"))
            }
            fn visit_map<A: de::MapAccess<'v>>(self, _: A) -> Result<SecretText, A::Error> {
                Err(de::Error::custom("must be a string"))
            }
        }
        deserializer.deserialize_any(V)
    }
}

/// An access token: a non-empty string of visible ASCII (what a header can carry). Its text is
/// never quoted in an error.
struct AccessToken(String);

impl<'de> Deserialize<'de> for AccessToken {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let SecretText(token) = SecretText::deserialize(deserializer)?;
        check_token(&token).map_err(|_| {
            de::Error::custom("must be a non-empty string of visible ASCII characters")
        })?;
        Ok(AccessToken(token))
    }
}

/// A token answer as RFC 6749 §5.1 describes it; members not listed are ignored.
#[derive(Deserialize)]
#[serde(remote = "Self")]
struct TokenAnswer {
    access_token: AccessToken,
    #[serde(default)]
    refresh_token: Option<SecretText>,
    #[serde(default)]
    expires_in: Option<Seconds>,
    #[serde(default)]
    token_type: Option<String>,
}

crate::objects_only!(TokenAnswer);

/// What a grant is called in errors.
fn operation(grant: GrantType) -> &'static str {
    grant.phrase()
}

/// Checks a 2xx token answer's bytes (the check of every answer, [`super::check`]). `sent_at` is
/// when the request was sent (ms since the Unix epoch): the access token expires `expires_in`
/// seconds after it, never later (the JWT itself is not read). `used_refresh_token` is kept when
/// a refresh answer carries none.
pub fn check_token_set(
    grant: GrantType,
    status: u16,
    body: &[u8],
    sent_at: f64,
    used_refresh_token: Option<&str>,
) -> Result<TokenSet, Error> {
    let answer: TokenAnswer = super::check::check(operation(grant), status, "", body)?;
    Ok(token_set(answer, sent_at, used_refresh_token))
}

fn token_set(answer: TokenAnswer, sent_at: f64, used_refresh_token: Option<&str>) -> TokenSet {
    let seconds = answer.expires_in.map_or(DEFAULT_EXPIRES_IN_S, |s| s.0);
    let refresh_token = answer
        .refresh_token
        .map(|SecretText(t)| t)
        .filter(|t| !t.is_empty())
        .or_else(|| used_refresh_token.map(str::to_owned));
    TokenSet {
        access_token: answer.access_token.0,
        refresh_token,
        expires_at: sent_at + seconds * 1000.0,
        token_type: answer
            .token_type
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| "Bearer".into()),
        lifetime_ms: Some(seconds * 1000.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::HttpMethod;
    use serde_json::json;

    fn base() -> BaseUrl {
        BaseUrl::normalised("https://acme.example.com/")
    }

    fn body_of(request: &HttpRequest) -> serde_json::Value {
        match &request.body {
            RequestBody::Json(body) => serde_json::to_value(body).unwrap(),
            other => panic!("not JSON: {other:?}"),
        }
    }

    #[test]
    fn each_grant_sends_the_json_the_service_documents() {
        let password = Grant::Password {
            username: "admin@acme.test",
            password: "pw",
            scope: DEFAULT_SCOPE,
        };
        let request = grant_request(&base(), "cid", "sec", password).unwrap();
        assert_eq!(request.url, "https://acme.example.com/accounts/oauth/token");
        assert_eq!(request.method, HttpMethod::Post);
        assert_eq!(request.spec.resend, crate::error::Resend::NotIdempotent);
        assert_eq!(
            body_of(&request),
            json!({"grant_type": "password", "client_id": "cid", "client_secret": "sec",
                   "username": "admin@acme.test", "password": "pw", "scope": "offline_access *"})
        );
        let refresh = Grant::Refresh {
            refresh_token: "rt",
        };
        assert_eq!(
            body_of(&grant_request(&base(), "cid", "sec", refresh).unwrap()),
            json!({"grant_type": "refresh_token", "client_id": "cid", "client_secret": "sec", "refresh_token": "rt"})
        );
        let code = Grant::AuthorizationCode {
            code: "c0de",
            redirect_uri: "https://portal.example.com/cb",
        };
        assert_eq!(
            body_of(&grant_request(&base(), "cid", "sec", code).unwrap()),
            json!({"grant_type": "authorization_code", "client_id": "cid", "client_secret": "sec",
                   "code": "c0de", "redirect_uri": "https://portal.example.com/cb"})
        );
    }

    #[test]
    fn empty_inputs_are_refused_by_name_without_their_values() {
        let refresh = Grant::Refresh {
            refresh_token: "rt",
        };
        let e = grant_request(&base(), "", "sec", refresh).unwrap_err();
        assert_eq!(e.to_string(), "invalid options.clientId: must not be empty");
        let e = grant_request(&base(), "cid", "", refresh).unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid options.clientSecret: must not be empty"
        );
        let e = grant_request(
            &base(),
            "cid",
            "sec",
            Grant::Password {
                username: "u",
                password: "",
                scope: DEFAULT_SCOPE,
            },
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid credentials.password: must not be empty"
        );
    }

    fn decode_json(value: serde_json::Value, used: Option<&str>) -> Result<TokenSet, Error> {
        let bytes = serde_json::to_vec(&value).unwrap();
        check_token_set(GrantType::RefreshToken, 200, &bytes, 1_000_000.0, used)
    }

    #[test]
    fn a_token_answer_gives_its_set_expiring_from_the_time_sent() {
        let set = decode_json(
            json!({"access_token": "eyJ.a.b", "refresh_token": "rt2", "expires_in": 3600, "token_type": "Bearer", "extra": 1}),
            Some("rt1"),
        )
        .unwrap();
        assert_eq!(
            set,
            TokenSet {
                access_token: "eyJ.a.b".into(),
                refresh_token: Some("rt2".into()),
                expires_at: 1_000_000.0 + 3_600_000.0,
                token_type: "Bearer".into(),
                lifetime_ms: Some(3_600_000.0),
            }
        );
        // A refresh answer without a refresh token keeps the one used; a numeric string and a
        // missing token_type are accepted.
        let set =
            decode_json(json!({"access_token": "a", "expires_in": "2"}), Some("rt1")).unwrap();
        assert_eq!(set.refresh_token.as_deref(), Some("rt1"));
        assert_eq!(set.expires_at, 1_002_000.0);
        assert_eq!(set.lifetime_ms, Some(2_000.0));
        assert_eq!(set.token_type, "Bearer");
        // No expires_in (or null): the service's default hour.
        let set = decode_json(json!({"access_token": "a"}), None).unwrap();
        assert_eq!(set.expires_at, 1_000_000.0 + 3_600_000.0);
        let set = decode_json(json!({"access_token": "a", "expires_in": null}), None).unwrap();
        assert_eq!(set.expires_at, 1_000_000.0 + 3_600_000.0);
        assert_eq!(set.refresh_token, None);
    }

    #[test]
    fn a_bad_token_answer_is_a_decode_error_naming_the_member_not_its_value() {
        for (body, says) in [
            (json!({"expires_in": 3600}), "missing field `access_token`"),
            (json!({"access_token": "", "expires_in": 3600}), "at access_token: must be a non-empty string"),
            (json!({"access_token": "a b", "expires_in": 3600}), "at access_token: must be a non-empty string"),
            (json!({"access_token": 12345}), "at access_token: must be a string"),
            (json!({"access_token": "a", "refresh_token": 987654}), "at refresh_token: must be a string"),
            (json!({"access_token": "a", "expires_in": "soon"}), "at expires_in: invalid value: string \"soon\", expected a positive number of seconds"),
            (json!({"access_token": "a", "expires_in": 0}), "at expires_in: invalid value"),
            (json!({"access_token": "a", "expires_in": -5}), "at expires_in: invalid value"),
            (json!("<html>"), "invalid type: string"),
        ] {
            let e = decode_json(body.clone(), None).unwrap_err();
            let text = e.to_string();
            assert!(text.starts_with("refresh grant failed: unexpected response from the service (HTTP 200): "), "{text}");
            assert!(text.contains(says), "{body}: {text}");
            assert!(!text.contains("a b") && !text.contains("12345") && !text.contains("987654"), "{text}");
        }
    }

    #[test]
    fn which_failures_are_repeated() {
        use crate::error::{retryable, ApiErrorKind::*};
        use GrantType::*;
        let repeats = |grant: GrantType, status: Option<u16>| {
            let kind = status.map_or(Network, crate::error::ApiErrorKind::from_status);
            retryable(kind, status, grant.spec().resend, status.is_some())
        };
        assert!(repeats(RefreshToken, None));
        assert!(repeats(RefreshToken, Some(503)));
        assert!(repeats(RefreshToken, Some(429)));
        assert!(!repeats(RefreshToken, Some(403)));
        assert!(repeats(Password, Some(503)));
        assert!(repeats(Password, Some(429)));
        assert!(!repeats(Password, None));
        assert!(!repeats(Password, Some(502)));
        assert!(!repeats(AuthorizationCode, Some(503)));
        assert!(!repeats(AuthorizationCode, None));
    }

    #[test]
    fn expires_at_in_seconds_is_refused_and_milliseconds_pass() {
        assert_eq!(expires_at_problem(1_790_000_000_000.0), None);
        let seconds = expires_at_problem(1_790_000_000.0).unwrap();
        assert!(
            seconds.starts_with("1790000000 can only be seconds"),
            "{seconds}"
        );
        assert!(expires_at_problem(f64::NAN).is_some());
        assert!(expires_at_problem(-1.0).is_some());
        assert!(expires_at_problem(f64::INFINITY).is_some());
    }

    #[test]
    fn a_refresh_token_is_named_by_its_sha256() {
        // The SHA-256 test vector of "abc" (FIPS 180-2, appendix B.1).
        assert_eq!(
            token_hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_ne!(token_hash("rt-1"), token_hash("rt-2"));
        assert!(!token_hash("rt-secret").contains("secret"));
    }

    #[test]
    fn a_refused_refresh_says_a_new_sign_in_is_needed() {
        let error = Error::Status {
            operation: "refresh grant",
            status: 400,
            code: Some("invalid_grant".into()),
            message: Some("refresh token not found".into()),
            retry_after_ms: None,
        };
        let text = sign_in_rejected(error).to_string();
        assert!(
            text.contains("refresh token not found; the refresh token was rejected"),
            "{text}"
        );
        assert!(text.contains("the user must sign in again"), "{text}");
    }

    #[test]
    fn invalid_grant_is_recognised_and_explained() {
        let body =
            json!({"error": "invalid_grant", "error_description": "refresh token not found"});
        let read =
            super::super::status::ErrorBody::from_answer(&serde_json::to_vec(&body).unwrap());
        assert_eq!(read.code.as_deref(), Some("invalid_grant"));
        let error = Error::Status {
            operation: "refresh grant",
            status: 403,
            code: read.code,
            message: read.message,
            retry_after_ms: None,
        };
        assert!(is_invalid_grant(&error));
        let text = refresh_rejected(error).to_string();
        assert!(text.contains("invalid_grant"), "{text}");
        assert!(
            text.contains(
                "refresh token not found; the refresh token was rejected: a new sign-in is needed"
            ),
            "{text}"
        );
        assert!(!is_invalid_grant(&Error::invalid("x", "y")));
    }

    #[test]
    fn invalid_grant_counts_only_on_a_client_error() {
        let error = |status| Error::Status {
            operation: "refresh grant",
            status,
            code: Some("invalid_grant".into()),
            message: None,
            retry_after_ms: None,
        };
        for status in [400, 401, 403] {
            assert!(is_invalid_grant(&error(status)), "{status}");
        }
        for status in [404, 429, 500, 502, 503] {
            assert!(!is_invalid_grant(&error(status)), "{status}");
        }
    }
}
