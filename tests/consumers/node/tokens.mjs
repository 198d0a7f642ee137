// A backend's token code with the packed estatekit/auth, run as its own Node process against the
// native emulator (ESTATEKIT_EMULATOR_URL) by tests/consumers/auth.test.mjs:
//   node tokens.mjs burst STORE_FILE        100 concurrent getToken, then calls for ~6 s
//   node tokens.mjs restart STORE_FILE      a new process on the same store: a call, no sign-in
//   node tokens.mjs eviction STORE_FILE     50 other sign-ins evict its refresh token; it recovers
// The store is a JSON file (a stand-in for Redis: the provider's Store interface over a file).
// It prints one JSON line of counts. It never prints a token: every error message and event of
// the run is scanned here for the secrets and the tokens it saw, and only the count of hits is
// printed.
import { readFileSync, writeFileSync, existsSync } from "node:fs";
import { inspect } from "node:util";
import { Client } from "estatekit";
import { createTokenProvider, passwordGrant } from "estatekit/auth";

const [mode, storeFile] = process.argv.slice(2);
const baseUrl = process.env.ESTATEKIT_EMULATOR_URL;
const oauth = { baseUrl, clientId: "dev-client", clientSecret: "dev-secret" };
const user = { username: "admin@acme.test", password: "dev-password" };

/** The Store interface over a JSON file (one process at a time here). */
function fileStore(path) {
  const read = () => (existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : {});
  const write = (data) => writeFileSync(path, JSON.stringify(data));
  const live = (data, key) => (data[key] && data[key].expires > Date.now() ? data[key] : undefined);
  return {
    async get(key) {
      return live(read(), key)?.value ?? null;
    },
    async set(key, value, ttlMs) {
      const data = read();
      data[key] = { value, expires: ttlMs ? Date.now() + ttlMs : Number.MAX_SAFE_INTEGER };
      write(data);
    },
    async delete(key) {
      const data = read();
      delete data[key];
      write(data);
    },
    async claim(key, ttlMs) {
      const data = read();
      if (live(data, key)) return null;
      const owner = `${process.pid}-${Math.random()}`;
      data[key] = { value: owner, expires: Date.now() + ttlMs };
      write(data);
      return owner;
    },
    async release(key, owner) {
      const data = read();
      if (data[key]?.value === owner) delete data[key];
      write(data);
    },
    async take() {
      return 0;
    },
  };
}

const oauthCounts = async () => (await fetch(`${baseUrl}/_emulator/oauth`)).json();

const events = [];
const errors = [];
const seenTokens = new Set();
const store = fileStore(storeFile);
const provider = createTokenProvider({ ...oauth, ...user, store, onEvent: (e) => events.push(e) });
const statuses = {};
const client = new Client({
  baseUrl,
  getToken: async (reason) => {
    const token = await provider.getToken(reason);
    seenTokens.add(token.token);
    return token;
  },
  onEvent: (e) => {
    if (e.type === "response") statuses[e.status] = (statuses[e.status] ?? 0) + 1;
  },
});

async function call() {
  try {
    await client.listWebhooks();
    return true;
  } catch (e) {
    errors.push(e);
    return false;
  }
}

const before = await oauthCounts();
const out = { mode };
if (mode === "burst") {
  const tokens = await Promise.all(Array.from({ length: 100 }, () => provider.getToken()));
  for (const t of tokens) seenTokens.add(t.token);
  out.distinctAfterBurst = new Set(tokens.map((t) => t.token)).size;
  const afterBurst = await oauthCounts();
  out.passwordGrantsAfterBurst = afterBurst.grants.password - before.grants.password;
  // Calls for ~6 s, 10 at a time, across several expiries of a 2 s token.
  let ok = 0;
  let failed = 0;
  const until = Date.now() + 6_000;
  while (Date.now() < until) {
    const results = await Promise.all(Array.from({ length: 10 }, call));
    ok += results.filter(Boolean).length;
    failed += results.filter((r) => !r).length;
    await new Promise((r) => setTimeout(r, 100));
  }
  out.calls = { ok, failed };
} else if (mode === "restart") {
  out.calls = { ok: (await call()) ? 1 : 0, failed: errors.length };
} else if (mode === "eviction") {
  // The provider signs in (or reuses the store), then 50 other sign-ins of the same user and
  // client fill the cap: its refresh token is deleted.
  await call();
  for (let i = 0; i < 50; i++) await passwordGrant(oauth, user);
  // The access token (2 s) expires: the next call needs a new one, and its refresh is refused.
  await new Promise((r) => setTimeout(r, 2_100));
  out.calls = { ok: (await call()) ? 1 : 0, failed: errors.length };
  out.ok2 = await call();
}
const after = await oauthCounts();
out.grants = {
  password: after.grants.password - before.grants.password,
  refresh_token: after.grants.refresh_token - before.grants.refresh_token,
};
out.rejected = { refresh_token: after.rejected.refresh_token - before.rejected.refresh_token };
out.distinctTokens = seenTokens.size;
out.statuses = statuses;
out.events = events.map((e) => `${e.type}:${e.grant ?? e.operation ?? ""}:${e.ok ?? ""}`);

// The secrets scan: everything this run could print about its calls.
const stored = existsSync(storeFile) ? readFileSync(storeFile, "utf8") : "";
const refreshTokens = [...stored.matchAll(/refreshToken\\":\\"([^\\"]+)/g)].map((m) => m[1]);
const secrets = ["dev-secret", "dev-password", ...seenTokens, ...refreshTokens];
const written = [
  ...errors.map((e) => `${e.message} ${JSON.stringify(e)} ${inspect(e)}`),
  JSON.stringify(events),
  inspect(provider),
  JSON.stringify(provider),
  String(provider),
].join("\n");
out.secretsChecked = secrets.length;
out.secretsFound = secrets.filter((s) => s && written.includes(s)).length;
out.errors = errors.map((e) => `${e.kind}: ${e.message}`.replace(/Bearer \S+/g, "Bearer …"));
provider.close();
client.free();
console.log(JSON.stringify(out));
