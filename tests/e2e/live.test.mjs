// End-to-end test of the demo's Live tab in the system Chromium, against what `make demo` runs:
// scripts/demo.mjs (its receiver, event log and stream route, the emulator behind it) on a free
// loopback port. Events the emulator emits (from the page's button and from its admin route)
// must appear in the panel, each once, as text; a delivery without the secret appears nowhere;
// the secret is never on the screen nor in the demo's output.
// Run: make test-e2e   (or: node --test tests/e2e/ after `make pkg emulator demo-static`)
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { once } from "node:events";
import path from "node:path";
import { launchChromium } from "../../scripts/local.mjs";
import { ROOT, SHOTS, PHONE, openPage as open, noErrors, callServer } from "./helpers.mjs";

const TOKEN = "dev-token";

let demo;
let base;
let output = "";
let browser;
const contexts = [];

/** Starts `node scripts/demo.mjs` on a free port, as `make demo` does; resolves its URL. */
async function startDemo() {
  assert.ok(existsSync(path.join(ROOT, "pkg/live.js")), "pkg/ is missing: run `make pkg` first");
  const child = spawn(process.execPath, ["scripts/demo.mjs", "--port", "0", "--", "--rate-limit", "0", "--seed-documents", "0", "--quiet"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stderr.on("data", (d) => (output += d));
  const url = await new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the demo exited (${code}) before listening\n${output}`)));
    child.stdout.on("data", (d) => {
      output += d;
      const match = output.match(/estatekit demo listening on (\S+)/);
      if (match) resolve(match[1]);
    });
  });
  return { child, url };
}

/** Calls the demo's address from the test (the emulator's routes pass through it). */
const call = (route, init) => callServer(base, TOKEN, route, init);

before(async () => {
  demo = await startDemo();
  base = demo.url;
  browser = await launchChromium();
});

after(async () => {
  while (contexts.length) await contexts.pop().close();
  await browser?.close();
  if (demo && demo.child.exitCode === null && demo.child.signalCode === null) {
    demo.child.kill("SIGTERM");
    await once(demo.child, "exit");
  }
});

test("live: the emulator's events appear in the Live panel as it emits them, each once, as text; none without the secret; the secret never shown", async () => {
  const page = await open(browser, contexts, `${base}/`);
  await page.click("#tab-live");
  await page.waitForSelector('body[data-live="available"]');
  assert.ok(await page.isHidden("#live-unavailable"));
  await page.click("#live-follow");
  await page.waitForSelector('body[data-live="following"]');
  assert.match(await page.textContent("#live-status"), /Following the 28 event types of account emu-/);

  // The demo's server registered its receiver for every type, the secret in the URL.
  const webhooks = (await call("/api/external-integrations/webhooks")).body;
  assert.equal(webhooks.length, 28);
  const secret = new URL(webhooks[0].url).searchParams.get("secret");
  assert.ok(secret && secret.length >= 16, "the receiver's URL carries a secret");
  const account = new URL(webhooks[0].url).pathname.split("/").pop();

  // 1. The page's own button: the emulator emits, the event shows up.
  await page.selectOption("#live-type", "LISTING_CANDIDATE_APPLIED");
  await page.click("#live-emit");
  await page.locator("#live-status", { hasText: "Emitted LISTING_CANDIDATE_APPLIED" }).waitFor();
  const fromPage = (await page.textContent("#live-status")).match(/event (\S+)\)/)[1];
  await page.locator(`#live-events .live-event[data-uuid="${fromPage}"]`).waitFor();

  // 2. The emulator's admin route: the same type with a text a page must not run in its data
  // (the example's first name), then another type.
  const example = JSON.parse(await page.textContent(`#live-events .live-event[data-uuid="${fromPage}"] .live-data`));
  const hostile = "<img src=x onerror=alert(1)>";
  const emitted = [fromPage];
  for (const [type, data] of [["LISTING_CANDIDATE_APPLIED", { ...example.data, firstName: hostile }], ["LISTING_CONTRACT_FLOW_SIGNED", undefined]]) {
    const { status, body } = await call("/_emulator/emit", { json: { type, token: TOKEN, data } });
    assert.equal(status, 200);
    assert.equal(body.webhooks, 1);
    emitted.push(body.uuid);
    // Fails (times out) if an emitted event does not appear in the panel.
    await page.locator(`#live-events .live-event[data-uuid="${body.uuid}"]`).waitFor();
  }

  // 3. A delivery without the secret (and one with a wrong secret) is refused: it never appears.
  const forged = JSON.stringify({ uuid: "forged-1", operation: "UNIT_DELETED", subdomain: account, language: "en", createdAt: new Date().toISOString(), data: {} });
  assert.equal((await call(`/demo/hooks/${account}`, { method: "POST", body: forged })).status, 401);
  assert.equal((await call(`/demo/hooks/${account}?secret=${secret}x`, { method: "POST", body: forged })).status, 401);
  const last = (await call("/_emulator/emit", { json: { type: "UNIT_DELETED", token: TOKEN } })).body.uuid;
  emitted.push(last);
  await page.locator(`#live-events .live-event[data-uuid="${last}"]`).waitFor();

  // Each event once, newest first, its type and its text as the service sent it.
  const shown = await page.$$eval("#live-events .live-event", (items) =>
    items.map((li) => ({ uuid: li.dataset.uuid, type: li.querySelector(".live-type").textContent, data: li.querySelector(".live-data").textContent })),
  );
  assert.deepEqual(shown.map((e) => e.uuid), [...emitted].reverse(), "each emitted event once, in order; none forged");
  assert.deepEqual(shown.map((e) => e.type), ["UNIT_DELETED", "LISTING_CONTRACT_FLOW_SIGNED", "LISTING_CANDIDATE_APPLIED", "LISTING_CANDIDATE_APPLIED"]);
  assert.equal(JSON.parse(shown[2].data).data.firstName, hostile, "the data as sent, as text");
  assert.equal(await page.locator("#live-events img").count(), 0);
  assert.match(await page.textContent("#live-count"), /^4 events received$/);

  // The secret: not on the screen (the Webhooks tab masks it), not in the page, not printed.
  await page.click("#tab-webhooks");
  await page.click("#webhooks-refresh");
  await page.waitForFunction(() => document.querySelectorAll("#webhooks-table tbody tr").length === 28);
  assert.match(await page.textContent("#webhooks-table"), /\?secret=•••/);
  assert.ok(!(await page.content()).includes(secret), "the secret is in the page");
  assert.ok(!output.includes(secret), "the demo printed the secret");

  // Screenshots of the tab (1280x800, then 390x844), without horizontal scrolling.
  mkdirSync(SHOTS, { recursive: true });
  await page.click("#tab-live");
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(SHOTS, "live-1280x800.png") });
  await page.setViewportSize(PHONE);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the Live tab scrolls sideways by ${overflow}px at 390x844`);
  await page.screenshot({ path: path.join(SHOTS, "live-390x844.png") });
  noErrors(page);
});

test("live: the page says what live events need when the demo's server is not behind it (the in-page service)", async () => {
  const page = await open(browser, contexts, `${base}/?service=in-page`);
  await page.locator("#connection-status", { hasText: "(emulator in this page)" }).waitFor();
  await page.click("#tab-live");
  await page.waitForSelector('body[data-live="unavailable"]');
  assert.match(await page.textContent("#live-unavailable"), /Live events need make demo/);
  assert.ok(await page.isHidden("#live-controls"));
  noErrors(page);
});
