// Real parts (issue 65): a portal as a front-end team builds it, from the packed tarball
// (tests/consumers/portal: React 19, TanStack Query 5 and the tarball, locked), its page built
// by Vite 7 and served, with its Content-Security-Policy, by a Node backend (server.mjs) that
// signs the staff member in (a session cookie) and serves estatekit/auth's createTokenRoute. The
// page, in Chromium, Firefox and WebKit: signed out, its first call meets the route's 401 and it
// shows the sign-in; signed in, it lists the webhooks of the staff member's own account (which
// only that member's token reaches: not dev-token's) through estatekit/token's getToken; signed
// out (the backend's sign-out and `clear()`), its next call gets the route's 401 again and it
// shows the sign-in, and so does the page's other tab (a same-origin frame, reached by clear()'s
// BroadcastChannel). The token is never in the page's storage or cookies. Prints the seconds
// each engine took.
import test from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readdirSync } from "node:fs";
import { openPage } from "./browsers.mjs";
import { ENGINE_NAMES, assertLocked, enginesToRun, installLocked, root, startEmulator } from "./lib.mjs";

const dir = `${root}tests/consumers/portal`;
const STAFF = "agent@acme.test";
// The emulator's user: its password grant gives tokens of the account `agent-account` only.
const USER_FLAG = `${STAFF}:agent-pass-Q9:agent-account`;

/** Starts server.mjs (from the project's folder: estatekit from its node_modules) for `serviceUrl`. */
async function startPortal(serviceUrl) {
  const child = spawn(process.execPath, ["server.mjs", serviceUrl], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  let err = "";
  child.stderr.on("data", (d) => (err += d));
  const [line] = await Promise.race([
    once(child.stdout, "data"),
    once(child, "exit").then(([code]) => Promise.reject(new Error(`server.mjs exited (${code}):\n${err}`))),
  ]);
  child.stdout.resume();
  return {
    url: String(line).trim(),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}

/** The page's `document.body.dataset.result` once its state is `state`. */
async function resultWhen(page, state, timeoutMs = 30_000) {
  const check = {
    "sign-in-required": () => document.body.dataset.state === "sign-in-required",
    "signed-in": () => document.body.dataset.state === "signed-in",
  }[state];
  try {
    await page.waitFor(check, timeoutMs);
  } catch (e) {
    const now = await page.evaluate(() => document.body.dataset.result ?? "(none)");
    const seen = [page.consoleMessages, page.pageErrors].flatMap((l) => l ?? []).join("\n  ");
    throw new Error(`the page did not reach ${state} in ${timeoutMs} ms (${e.message}); it shows ${now}\n  ${seen}`);
  }
  return JSON.parse(await page.evaluate(() => document.body.dataset.result));
}

test.describe("Real parts: a Vite + React + TanStack Query portal with a Node backend's token route", () => {
  const started = Date.now();
  let emulator;
  let portal;
  let agentHook;
  test.before(async () => {
    installLocked(dir);
    const { build } = await import("vite");
    await build({
      root: dir,
      configFile: false,
      logLevel: "warn",
      esbuild: { jsx: "automatic" },
      build: {
        outDir: "dist",
        emptyOutDir: true,
        // TanStack Query's "use client" directives, which a client-only bundle drops.
        rollupOptions: { onwarn: (w, warn) => w.code === "MODULE_LEVEL_DIRECTIVE" || warn(w) },
      },
    });
    emulator = await startEmulator(["--user", USER_FLAG]);
    const post = async (path, body) => {
      const res = await fetch(`${emulator.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      assert.ok(res.ok, `${path}: HTTP ${res.status}`);
      return res.json();
    };
    await post("/_emulator/accounts", { token: "agent-account" });
    // One webhook on the staff member's account, one on dev-token's: the page must list the first only.
    const seeded = await post("/_emulator/seed", { token: "agent-account", webhooks: [{ type: "UNIT_CREATED", url: "http://127.0.0.1:9/agent" }] });
    [agentHook] = seeded.webhookIds;
    await post("/_emulator/seed", { webhooks: [{ type: "OWNER_CREATED", url: "http://127.0.0.1:9/service-account" }] });
    portal = await startPortal(emulator.url);
  });
  test.after(async () => {
    await portal?.stop();
    await emulator?.stop();
    console.log(`portal: ${((Date.now() - started) / 1000).toFixed(1)} s in all (install, vite build, ${enginesToRun().join(", ")})`);
  });

  test.it("locks React, TanStack Query exactly, and estatekit as the packed tarball; Vite emits the .wasm file", () => {
    assertLocked(assert, dir, { "@tanstack/react-query": "dependencies", react: "dependencies", "react-dom": "dependencies" });
    assert.equal(readdirSync(`${dir}/dist/assets`).filter((f) => f.endsWith(".wasm")).length, 1);
  });

  /** The token route's answers from the `from`-th on (status, Sec-Fetch-Site, headers). */
  const answersFrom = async (from) => (await (await fetch(`${portal.url}/_test/answers`)).json()).slice(from);
  const inTab2 = {
    signedIn: () => document.querySelector("#tab2")?.contentDocument?.body?.dataset.state === "signed-in",
    signInRequired: () => document.querySelector("#tab2")?.contentDocument?.body?.dataset.state === "sign-in-required",
  };

  for (const engine of enginesToRun()) {
    test.it(`${ENGINE_NAMES[engine]}: signed out 401, sign in, the staff member's own token, sign out in every tab, 401 again`, async () => {
      const t0 = Date.now();
      const before = (await answersFrom(0)).length;
      const page = await openPage(engine);
      try {
        await page.goto(`${portal.url}/?tabs=2&service=${encodeURIComponent(emulator.url)}`);
        // isSignInRequired(error): the route's 401, whatever kind the Client gives the call's error.
        const first = await resultWhen(page, "sign-in-required");
        assert.equal(first.webhooks, null);
        await page.waitFor(inTab2.signInRequired, 30_000);

        await page.evaluate(() => {
          const form = document.querySelector("#signin");
          form.elements.username.value = "agent@acme.test";
          form.elements.password.value = "agent-pass-Q9";
          form.requestSubmit();
          return true;
        });
        const signedIn = await resultWhen(page, "signed-in");
        assert.deepEqual(signedIn.webhooks, [{ id: agentHook, type: "UNIT_CREATED", url: "http://127.0.0.1:9/agent" }], "the staff member's account, not the service account's");
        // The other tab (the same session cookie) asks again and is signed in too.
        await page.evaluate(() => (document.querySelector("#tab2").contentDocument.querySelector("#again").click(), true));
        await page.waitFor(inTab2.signedIn, 30_000);

        // Many calls, one token: reloads reuse the token the Client keeps.
        const asked = (await answersFrom(before)).length;
        await page.evaluate(() => (document.querySelector("#again").click(), true));
        await page.waitFor(() => JSON.parse(document.body.dataset.result).calls === 1 && document.body.dataset.state === "signed-in", 30_000);
        assert.equal((await answersFrom(before)).length, asked, "a reload with a valid token does not ask the route");
        const stored = await page.evaluate(() =>
          JSON.stringify({ local: localStorage.length, session: sessionStorage.length, cookie: document.cookie }),
        );
        assert.deepEqual(JSON.parse(stored), { local: 0, session: 0, cookie: "" }, "no token in storage or readable cookies");

        // Sign-out in this tab: clear() reaches the other one, whose next call gets the 401 too.
        await page.evaluate(() => (document.querySelector("#signout").click(), true));
        const signedOut = await resultWhen(page, "sign-in-required");
        assert.equal(signedOut.webhooks, null);
        assert.match(signedOut.error.message, /sign-in required/);
        await page.waitFor(inTab2.signInRequired, 30_000);
        const cleared = await page.evaluate(() =>
          JSON.stringify([document.body.dataset.cleared, document.querySelector("#tab2").contentDocument.body.dataset.cleared]),
        );
        assert.deepEqual(JSON.parse(cleared), ["1", "1"], "clear() reached this tab and the other");

        const answers = await answersFrom(before);
        const statuses = answers.map((a) => a.status);
        // Each tab: 401 at first, 200 once signed in, 401 after the sign-out.
        assert.deepEqual([...statuses].sort(), [200, 200, 401, 401, 401, 401], JSON.stringify(answers));
        assert.deepEqual(statuses.slice(-2), [401, 401]);
        for (const a of answers) {
          assert.equal(a.cacheControl, "no-store");
          assert.equal(a.vary, "Cookie");
          assert.equal(a.cors, null);
        }
        if (engine !== "webkit") assert.deepEqual(page.pageErrors, []);
        console.log(
          `portal, ${engine}: route answered ${answers.map((a) => `${a.status} (Sec-Fetch-Site ${a.site})`).join(", ")}; ` +
            `signed out: ${signedOut.error.kind} "${signedOut.error.message}"; ${((Date.now() - t0) / 1000).toFixed(1)} s`,
        );
      } finally {
        await page.close();
      }
    });
  }
});
