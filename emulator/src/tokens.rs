//! What the token endpoint issued: access tokens, refresh tokens (at most
//! [`MAX_REFRESH_TOKENS`] per client and user, oldest deleted first) and authorization codes,
//! with the counts of `GET /_emulator/oauth`. A code, once spent, is remembered (at most
//! [`SPENT_CODES_KEPT`]) with the grant its tokens belong to, so that a second use revokes them
//! (RFC 6749 4.1.2). No I/O: the handlers in `oauth` pass the clock and
//! the random strings in.

use crate::config::{OAuthClient, User};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap, VecDeque};

/// Refresh tokens kept per (client, user); a newer one deletes the oldest.
pub const MAX_REFRESH_TOKENS: usize = 50;
/// Issued access tokens remembered (expired ones included, so that a late call hears "expired"),
/// beyond which expired ones are forgotten.
const ACCESS_TOKENS_KEPT: usize = 10_000;
/// Spent authorization codes remembered (oldest forgotten first), so that a reuse is told from an
/// unknown code and revokes what the code gave.
pub const SPENT_CODES_KEPT: usize = 10_000;

/// The grant an authorization code started: every token issued from the code, and from the
/// refresh tokens it gave, carries its id, and a second use of the code revokes them all.
pub type GrantId = u64;

/// The three grants of `POST /accounts/oauth/token`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grant {
    /// `grant_type: "password"`.
    Password,
    /// `grant_type: "refresh_token"`.
    RefreshToken,
    /// `grant_type: "authorization_code"`.
    AuthorizationCode,
}

impl Grant {
    /// Every grant, in the order of the counts.
    pub const ALL: [Grant; 3] = [
        Grant::Password,
        Grant::RefreshToken,
        Grant::AuthorizationCode,
    ];

    /// The grant named by a `grant_type`.
    pub fn parse(s: &str) -> Option<Grant> {
        Grant::ALL.into_iter().find(|g| g.as_str() == s)
    }

    /// Its `grant_type`.
    pub fn as_str(self) -> &'static str {
        match self {
            Grant::Password => "password",
            Grant::RefreshToken => "refresh_token",
            Grant::AuthorizationCode => "authorization_code",
        }
    }

    fn index(self) -> usize {
        match self {
            Grant::Password => 0,
            Grant::RefreshToken => 1,
            Grant::AuthorizationCode => 2,
        }
    }
}

/// One issued access token.
#[derive(Debug, Clone)]
struct Access {
    username: String,
    account: String,
    expires_at: u64,
    grant: Option<GrantId>,
}

/// One live refresh token.
#[derive(Debug, Clone)]
pub struct Refresh {
    /// The client it was issued to.
    pub client_id: String,
    /// The user it signs in.
    pub username: String,
    /// The scope of the grant that issued it.
    pub scope: String,
    /// The authorization code's grant it comes from, if any.
    pub grant: Option<GrantId>,
}

/// One authorization code not exchanged yet.
#[derive(Debug, Clone)]
pub struct Code {
    /// The client it was issued to.
    pub client_id: String,
    /// The `redirect_uri` it was sent to.
    pub redirect_uri: String,
    /// Whether the authorization request named `redirect_uri` (it may leave it out when the
    /// client registered exactly one; then the token request need not send it, RFC 6749 4.1.3).
    pub redirect_uri_given: bool,
    /// The user who approved.
    pub username: String,
    /// The scope asked for.
    pub scope: String,
    /// When it stops being accepted (monotonic ms).
    pub expires_at: u64,
    /// The PKCE challenge of its authorization request, if any.
    pub challenge: Option<Challenge>,
}

/// A PKCE `code_challenge` (RFC 7636 4.2) with its method.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Challenge {
    /// `code_challenge_method=plain` (the default when no method is given): the verifier itself.
    Plain(String),
    /// `code_challenge_method=S256`: `BASE64URL(SHA256(verifier))`, without padding.
    S256(String),
}

impl Challenge {
    /// The challenge of an authorization request's `code_challenge` and
    /// `code_challenge_method` (RFC 7636 4.3); the error says what is wrong, never quoting a value.
    pub fn parse(challenge: &str, method: Option<&str>) -> Result<Challenge, &'static str> {
        let well_formed = (43..=128).contains(&challenge.len())
            && challenge
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~'));
        if !well_formed {
            return Err("`code_challenge` must be 43 to 128 characters of A-Z, a-z, 0-9, `-`, `.`, `_`, `~` (RFC 7636 4.2)");
        }
        match method.unwrap_or("plain") {
            "plain" => Ok(Challenge::Plain(challenge.to_string())),
            "S256" => Ok(Challenge::S256(challenge.to_string())),
            _ => Err("`code_challenge_method` must be `S256` or `plain`"),
        }
    }

    /// Whether `verifier` is the one this challenge was made from (RFC 7636 4.6).
    pub fn verifies(&self, verifier: &str) -> bool {
        match self {
            Challenge::Plain(c) => constant_time_eq(c.as_bytes(), verifier.as_bytes()),
            Challenge::S256(c) => {
                let derived = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
                constant_time_eq(c.as_bytes(), derived.as_bytes())
            }
        }
    }
}

/// What [`TokenStore::take_code`] found.
#[derive(Debug)]
pub enum Taken {
    /// A code not used before (now spent), with the grant id for its tokens.
    Fresh(Code, GrantId),
    /// A code used before: its grant.
    Spent(GrantId),
    /// A code never issued, or expired and forgotten.
    Unknown,
}

/// What a bearer token is to the API.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Bearer {
    /// A fixed token (`dev-token`, `--token`, `readonly-token`): its own account.
    Fixed(String),
    /// A live issued access token, reaching `account` as `username`.
    Issued {
        /// The account's token.
        account: String,
        /// The signed-in user.
        username: String,
    },
    /// An issued access token past its lifetime.
    Expired {
        /// The account it reached.
        account: String,
    },
    /// Neither.
    Unknown,
}

/// Clients, users and everything issued to them.
#[derive(Debug, Default)]
pub struct TokenStore {
    /// The clients.
    pub clients: Vec<OAuthClient>,
    /// The users, each with the token of the account they reach.
    pub users: Vec<(User, String)>,
    access: HashMap<String, Access>,
    refresh: HashMap<String, Refresh>,
    /// Refresh tokens per (client, user), oldest first.
    refresh_order: HashMap<(String, String), VecDeque<String>>,
    codes: HashMap<String, Code>,
    /// Spent codes and their grants, and their order (oldest first).
    spent: HashMap<String, GrantId>,
    spent_order: VecDeque<String>,
    next_grant: GrantId,
    granted: [u64; 3],
    rejected: [u64; 3],
}

impl TokenStore {
    /// A store for these clients and users (each user with its account's token).
    pub fn new(clients: Vec<OAuthClient>, users: Vec<(User, String)>) -> TokenStore {
        TokenStore {
            clients,
            users,
            ..TokenStore::default()
        }
    }

    /// True if the client exists and the secret is its own.
    pub fn client_ok(&self, id: &str, secret: &str) -> bool {
        self.clients
            .iter()
            .any(|c| c.id == id && constant_time_eq(c.secret.as_bytes(), secret.as_bytes()))
    }

    /// True if a client has this id.
    pub fn has_client(&self, id: &str) -> bool {
        self.clients.iter().any(|c| c.id == id)
    }

    /// The user with this name (ASCII case-insensitive) and password.
    pub fn login(&self, username: &str, password: &str) -> Option<&User> {
        self.users.iter().map(|(u, _)| u).find(|u| {
            u.username.eq_ignore_ascii_case(username)
                && constant_time_eq(u.password.as_bytes(), password.as_bytes())
        })
    }

    /// The user with this name, and the token of its account.
    pub fn user(&self, username: &str) -> Option<&(User, String)> {
        self.users.iter().find(|(u, _)| u.username == username)
    }

    /// The first user (the one `GET /accounts/dialog/authorize` signs in).
    pub fn default_user(&self) -> Option<&User> {
        self.users.first().map(|(u, _)| u)
    }

    /// Records an access token for `username`, living until `expires_at` (monotonic ms), part of
    /// `grant` if it comes from an authorization code.
    pub fn add_access(
        &mut self,
        token: String,
        username: &str,
        expires_at: u64,
        now: u64,
        grant: Option<GrantId>,
    ) {
        if self.access.len() >= ACCESS_TOKENS_KEPT {
            self.access.retain(|_, a| a.expires_at > now);
        }
        let account = self
            .user(username)
            .map(|(_, account)| account.clone())
            .unwrap_or_default();
        self.access.insert(
            token,
            Access {
                username: username.to_string(),
                account,
                expires_at,
                grant,
            },
        );
    }

    /// What an issued access token is at `now` (`Unknown` if it was never issued).
    pub fn access(&self, token: &str, now: u64) -> Bearer {
        match self.access.get(token) {
            Some(a) if now < a.expires_at => Bearer::Issued {
                account: a.account.clone(),
                username: a.username.clone(),
            },
            Some(a) => Bearer::Expired {
                account: a.account.clone(),
            },
            None => Bearer::Unknown,
        }
    }

    /// Records a refresh token; past [`MAX_REFRESH_TOKENS`] for its (client, user), the oldest
    /// are deleted.
    pub fn add_refresh(&mut self, token: String, r: Refresh) {
        let key = (r.client_id.clone(), r.username.clone());
        let order = self.refresh_order.entry(key).or_default();
        order.push_back(token.clone());
        while order.len() > MAX_REFRESH_TOKENS {
            if let Some(old) = order.pop_front() {
                self.refresh.remove(&old);
            }
        }
        self.refresh.insert(token, r);
    }

    /// The live refresh token, if it was issued to `client_id`.
    pub fn refresh(&self, token: &str, client_id: &str) -> Option<&Refresh> {
        self.refresh.get(token).filter(|r| r.client_id == client_id)
    }

    /// Deletes one refresh token.
    pub fn remove_refresh(&mut self, token: &str) {
        if let Some(r) = self.refresh.remove(token) {
            if let Some(order) = self.refresh_order.get_mut(&(r.client_id, r.username)) {
                order.retain(|t| t != token);
            }
        }
    }

    /// Deletes every refresh token of a user (any client); returns how many.
    pub fn revoke_user(&mut self, username: &str) -> usize {
        let before = self.refresh.len();
        self.refresh.retain(|_, r| r.username != username);
        self.refresh_order.retain(|(_, user), _| user != username);
        before - self.refresh.len()
    }

    /// Records an authorization code.
    pub fn add_code(&mut self, code: String, c: Code, now: u64) {
        self.codes.retain(|_, c| c.expires_at > now);
        self.codes.insert(code, c);
    }

    /// Takes a code out (a code is spent by its first exchange attempt): `Fresh` with the grant
    /// id its tokens are to carry, `Spent` with the grant of its first use, or `Unknown`.
    pub fn take_code(&mut self, code: &str) -> Taken {
        if let Some(grant) = self.spent.get(code) {
            return Taken::Spent(*grant);
        }
        let Some(c) = self.codes.remove(code) else {
            return Taken::Unknown;
        };
        let grant = self.next_grant;
        self.next_grant = self.next_grant.wrapping_add(1);
        self.spent.insert(code.to_string(), grant);
        self.spent_order.push_back(code.to_string());
        while self.spent_order.len() > SPENT_CODES_KEPT {
            if let Some(old) = self.spent_order.pop_front() {
                self.spent.remove(&old);
            }
        }
        Taken::Fresh(c, grant)
    }

    /// Revokes every access and refresh token of a code's grant (the code was used twice, RFC
    /// 6749 4.1.2); returns how many.
    pub fn revoke_grant(&mut self, grant: GrantId) -> usize {
        let before = self.access.len() + self.refresh.len();
        self.access.retain(|_, a| a.grant != Some(grant));
        let gone: Vec<String> = self
            .refresh
            .iter()
            .filter(|(_, r)| r.grant == Some(grant))
            .map(|(t, _)| t.clone())
            .collect();
        for t in &gone {
            self.remove_refresh(t);
        }
        before - self.access.len() - self.refresh.len()
    }

    /// Counts a grant answered 200 (`ok`) or refused.
    pub fn count(&mut self, grant: Grant, ok: bool) {
        let counts = if ok {
            &mut self.granted
        } else {
            &mut self.rejected
        };
        if let Some(n) = counts.get_mut(grant.index()) {
            *n += 1;
        }
    }

    /// Zeroes the grant counts (issued tokens stay valid).
    pub fn reset_counts(&mut self) {
        self.granted = [0; 3];
        self.rejected = [0; 3];
    }

    /// Grants answered 200, by `grant_type`.
    pub fn granted(&self) -> BTreeMap<&'static str, u64> {
        counts(&self.granted)
    }

    /// Grants refused, by `grant_type`.
    pub fn rejected(&self) -> BTreeMap<&'static str, u64> {
        counts(&self.rejected)
    }

    /// Live refresh tokens per user (every user, 0 included).
    pub fn live_refresh_tokens(&self) -> BTreeMap<String, usize> {
        let mut live: BTreeMap<String, usize> = self
            .users
            .iter()
            .map(|(u, _)| (u.username.clone(), 0))
            .collect();
        for r in self.refresh.values() {
            *live.entry(r.username.clone()).or_insert(0) += 1;
        }
        live
    }
}

fn counts(c: &[u64; 3]) -> BTreeMap<&'static str, u64> {
    Grant::ALL
        .into_iter()
        .map(|g| (g.as_str(), c.get(g.index()).copied().unwrap_or(0)))
        .collect()
}

/// Compares secrets without stopping at the first difference.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store() -> TokenStore {
        TokenStore::new(
            crate::config::default_oauth_clients(),
            crate::config::default_users()
                .into_iter()
                .map(|u| (u, "dev-token".to_string()))
                .collect(),
        )
    }

    fn refresh(user: &str) -> Refresh {
        Refresh {
            client_id: "dev-client".into(),
            username: user.into(),
            scope: "s".into(),
            grant: None,
        }
    }

    #[test]
    fn the_51st_refresh_token_deletes_the_oldest() {
        let mut s = store();
        for i in 0..=MAX_REFRESH_TOKENS {
            s.add_refresh(format!("r{i}"), refresh("admin@acme.test"));
        }
        assert!(s.refresh("r0", "dev-client").is_none());
        assert!(s.refresh("r1", "dev-client").is_some());
        assert!(s.refresh("r50", "dev-client").is_some());
        assert!(s.refresh("r50", "other-client").is_none());
        assert_eq!(
            s.live_refresh_tokens()["admin@acme.test"],
            MAX_REFRESH_TOKENS
        );
        s.remove_refresh("r1");
        assert_eq!(s.live_refresh_tokens()["admin@acme.test"], 49);
        assert_eq!(s.revoke_user("admin@acme.test"), 49);
        assert_eq!(s.live_refresh_tokens()["admin@acme.test"], 0);
    }

    #[test]
    fn access_tokens_expire() {
        let mut s = store();
        s.add_access("a".into(), "admin@acme.test", 100, 0, None);
        assert!(
            matches!(s.access("a", 99), Bearer::Issued { ref account, .. } if account == "dev-token")
        );
        assert_eq!(
            s.access("a", 100),
            Bearer::Expired {
                account: "dev-token".into()
            }
        );
        assert_eq!(s.access("b", 0), Bearer::Unknown);
    }

    #[test]
    fn pkce_challenges() {
        // RFC 7636, appendix B.
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
        let s256 = Challenge::parse("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", Some("S256"));
        assert!(s256.as_ref().is_ok_and(|c| c.verifies(verifier)));
        assert!(s256.is_ok_and(|c| !c.verifies("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXK")));
        let plain = Challenge::parse(verifier, None);
        assert_eq!(plain, Ok(Challenge::Plain(verifier.to_string())));
        assert!(plain.is_ok_and(|c| c.verifies(verifier) && !c.verifies("other")));
        assert!(Challenge::parse("short", Some("S256")).is_err());
        assert!(Challenge::parse(&"a b".repeat(20), None).is_err());
        assert!(Challenge::parse(verifier, Some("s256")).is_err());
        assert!(Challenge::parse(&"a".repeat(129), None).is_err());
    }

    #[test]
    fn a_spent_code_is_told_from_an_unknown_one_and_its_grant_revoked() {
        let mut s = store();
        let code = Code {
            client_id: "dev-client".into(),
            redirect_uri: "http://127.0.0.1:9/cb".into(),
            redirect_uri_given: true,
            username: "admin@acme.test".into(),
            scope: "s".into(),
            expires_at: 100,
            challenge: None,
        };
        s.add_code("c1".into(), code, 0);
        let Taken::Fresh(_, grant) = s.take_code("c1") else {
            panic!("a fresh code");
        };
        s.add_access("a1".into(), "admin@acme.test", 1000, 0, Some(grant));
        s.add_access("a2".into(), "admin@acme.test", 1000, 0, None);
        s.add_refresh(
            "r1".into(),
            Refresh {
                grant: Some(grant),
                ..refresh("admin@acme.test")
            },
        );
        s.add_refresh("r2".into(), refresh("admin@acme.test"));
        assert!(matches!(s.take_code("c1"), Taken::Spent(g) if g == grant));
        assert!(matches!(s.take_code("never"), Taken::Unknown));
        assert_eq!(s.revoke_grant(grant), 2);
        assert_eq!(s.access("a1", 1), Bearer::Unknown);
        assert!(matches!(s.access("a2", 1), Bearer::Issued { .. }));
        assert!(s.refresh("r1", "dev-client").is_none());
        assert!(s.refresh("r2", "dev-client").is_some());
        assert_eq!(s.live_refresh_tokens()["admin@acme.test"], 1);
    }

    #[test]
    fn logins_and_clients() {
        let s = store();
        assert!(s.login("Admin@Acme.test", "dev-password").is_some());
        assert!(s.login("admin@acme.test", "dev-passwore").is_none());
        assert!(s.client_ok("dev-client", "dev-secret"));
        assert!(!s.client_ok("dev-client", "dev-secre"));
        assert!(!s.client_ok("other", "dev-secret"));
    }
}
