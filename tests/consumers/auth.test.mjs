// estatekit/auth in real Node processes from the packed tarball (tests/consumers/node/tokens.mjs)
// against the native emulator issuing 2-second access tokens (--access-token-ttl 2): one password
// grant for 100 concurrent getToken, each expiry refreshed once with no failed call and no 401, a
// restart on the same store without a new sign-in, the 50-refresh-token eviction recovered by
// exactly one password grant, and no secret in anything the runs wrote about their calls.
import test from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { promisify } from "node:util";
import { installPacked, root, startEmulator } from "./lib.mjs";

const dir = `${root}tests/consumers/node`;
const SECRETS = ["dev-secret", "dev-password"];

test.describe("estatekit/auth in Node processes", () => {
  let emulator;
  let work;
  const run = async (mode) => {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ["tokens.mjs", mode, `${work}/store.json`], {
      cwd: dir,
      env: { ...process.env, ESTATEKIT_EMULATOR_URL: emulator.url },
      timeout: 60_000,
    });
    for (const secret of SECRETS) assert.ok(!`${stdout}${stderr}`.includes(secret), `${mode} printed a secret`);
    console.log(`${mode}: ${stdout.trim()}`);
    return JSON.parse(stdout);
  };

  test.before(async () => {
    installPacked(dir);
    emulator = await startEmulator(["--access-token-ttl", "2"]);
    work = mkdtempSync(`${tmpdir()}/estatekit-auth-`);
  });
  test.after(async () => {
    await emulator?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  test.it("100 concurrent getToken: 1 password grant; ~6 s of calls: each expiry refreshed once, none failed", async () => {
    const out = await run("burst");
    assert.equal(out.passwordGrantsAfterBurst, 1);
    assert.equal(out.distinctAfterBurst, 1);
    assert.equal(out.grants.password, 1);
    assert.equal(out.calls.failed, 0, out.errors.join("\n"));
    assert.ok(out.calls.ok >= 100, `${out.calls.ok} calls`);
    // Every token after the first came from one refresh: one per expiry of a 2 s token over ~6 s.
    assert.equal(out.grants.refresh_token, out.distinctTokens - 1);
    assert.ok(out.grants.refresh_token >= 2 && out.grants.refresh_token <= 5, `${out.grants.refresh_token} refreshes`);
    assert.equal(out.statuses["401"] ?? 0, 0, "renewed before expiry, never after a 401");
    assert.equal(out.secretsFound, 0);
  });

  test.it("a restart with the same store makes no new password grant", async () => {
    const out = await run("restart");
    assert.equal(out.calls.ok, 1);
    assert.equal(out.grants.password, 0);
    assert.ok(out.grants.refresh_token <= 1);
    assert.equal(out.secretsFound, 0);
  });

  test.it("50 other sign-ins evict its refresh token: exactly one password grant recovers", async () => {
    const out = await run("eviction");
    assert.equal(out.calls.ok, 1, out.errors.join("\n"));
    assert.equal(out.ok2, true);
    // The 50 sign-ins of the test itself, and one by the provider after its refresh was refused.
    assert.equal(out.grants.password, 51);
    assert.equal(out.rejected.refresh_token, 1);
    assert.ok(out.events.includes("grant:refresh_token:false"), out.events.join(", "));
    assert.equal(out.secretsFound, 0);
  });
});
