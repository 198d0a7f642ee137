// End-to-end tests of the demo for static hosts (`make demo-static`, target/demo-static/): the
// folder served by a plain static file server, no emulator process. The page defaults to the
// in-page service (estatekit/testing) and every feature works there; every request the browser
// makes is a file of the folder.
// Run: make test-e2e   (or: node --test tests/e2e/ after `make demo-static`)
import { test, before, after, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { launchChromium } from "../../scripts/local.mjs";
import { ROOT, SHOTS, DESKTOP, PHONE, openPage as open, noErrors, makeJpeg, registerWebhook, serveStatic, showMessages } from "./helpers.mjs";

const DIR = path.join(ROOT, "target/demo-static");
const SERVICE = "https://acme.estatekit.test";
const TOKEN = "dev-token";

let server;
let browser;
const contexts = [];

/** A fresh page on the static folder's root (`query` appended), connected with the defaults. */
function openPage(viewport = DESKTOP, query = "") {
  return open(browser, contexts, `${server.url}/${query}`, viewport);
}

/** Every request of the page went to the static host, for a file of the folder. */
function onlyFiles(page) {
  const elsewhere = page.requests.filter((url) => !url.startsWith(`${server.url}/`) && !url.startsWith("data:"));
  assert.deepEqual(elsewhere, [], "requests that left the static host");
  const paths = page.requests.filter((url) => url.startsWith(server.url)).map((url) => new URL(url).pathname);
  // (pkg/snippets/js/: the ApiError class, the functions that send a request and tell an event, beside the glue, which its bindings import.)
  const notFiles = paths.filter((p) => !(p === "/" || p === "/www/" || /^\/(www|pkg|pkg\/snippets\/js)\/[\w.-]+\.(js|css|wasm)$/.test(p)));
  assert.deepEqual(notFiles, [], "requests for something else than the folder's files");
}

/** The `td:nth-child(4)` texts (event kinds) of the Network tab, newest first. */
const networkKinds = (page) => page.$$eval("#network-rows tr td:nth-child(4)", (cells) => cells.map((c) => c.textContent));

before(async () => {
  assert.ok(existsSync(path.join(DIR, "www/index.html")), "target/demo-static/ is missing: run `make demo-static` first");
  server = await serveStatic(DIR);
  browser = await launchChromium();
});

beforeEach(async () => {
  while (contexts.length) await contexts.pop().close();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test("the static folder: its root opens the page, which defaults to the in-page service and loads both entries from the folder", async () => {
  const page = await openPage();
  assert.equal(new URL(page.url()).pathname, "/www/");
  assert.equal(await page.inputValue("#service-mode"), "in-page");
  assert.equal(await page.inputValue("#base-url"), SERVICE);
  assert.equal(await page.inputValue("#token"), TOKEN);
  assert.match(await page.textContent("#connection-status"), /Connected to https:\/\/acme\.estatekit\.test \(emulator in this page\)/);
  // No server behind a static host: the Live tab says what live events need, and asks nothing.
  await page.click("#tab-live");
  await page.waitForSelector('body[data-live="unavailable"]');
  assert.match(await page.textContent("#live-unavailable"), /Live events need make demo/);
  assert.ok(await page.isHidden("#live-controls"));
  await page.click("#tab-webhooks");
  await page.locator("#webhooks-list .empty").waitFor();
  const loaded = page.requests.map((url) => new URL(url).pathname).filter((p) => p.startsWith("/pkg/")).sort();
  assert.deepEqual(loaded, [
    "/pkg/api_error.js",
    "/pkg/base_url.js",
    "/pkg/client.js",
    "/pkg/estatekit.js",
    "/pkg/estatekit_testing_wasm.js",
    "/pkg/estatekit_testing_wasm_bg.wasm",
    "/pkg/estatekit_wasm.js",
    "/pkg/estatekit_wasm_bg.wasm",
    // estatekit/testing's memory event log (estatekit/live's, re-exported) and what it imports.
    "/pkg/live_log.js",
    "/pkg/loader.js",
    "/pkg/paging.js",
    "/pkg/redis_send.js",
    "/pkg/snippets/js/api_error.js",
    "/pkg/snippets/js/base_url.js",
    "/pkg/snippets/js/events.js",
    "/pkg/snippets/js/request.js",
    "/pkg/testing.js",
    "/pkg/testing_service.js",
    "/pkg/vocab.js",
  ]);
  onlyFiles(page);
  // The service is only in the page: the static host was asked for files only.
  assert.deepEqual(server.requests.filter((r) => !r.startsWith("GET ")), []);
  noErrors(page);
});

test("in-page webhooks: register, a test event delivered to the in-page sink (an outside URL fails, nothing leaves the page), delete", async () => {
  const page = await openPage();
  assert.equal(await page.inputValue("#webhook-url"), `${SERVICE}/_emulator/sink/demo`);
  await registerWebhook(page, "LISTING_CANDIDATE_APPLIED");
  assert.match(await page.textContent("#webhook-form-status"), /Registered LISTING_CANDIDATE_APPLIED/);
  // A second webhook of the type, to a host outside the page.
  await page.fill("#webhook-url", "https://hooks.example.com/estate");
  await page.click("#webhook-register");
  await page.locator("#webhooks-table tbody tr", { hasText: "hooks.example.com" }).waitFor();

  assert.ok(await page.isVisible("#event-form"));
  await page.selectOption("#event-type", "LISTING_CANDIDATE_APPLIED");
  await page.click("#event-send");
  await page.locator("#event-status", { hasText: "sent to 2 webhooks" }).waitFor();
  const rows = page.locator("#deliveries-table tbody tr");
  await rows.filter({ hasText: "HTTP 200" }).first().waitFor();
  assert.match(await rows.filter({ hasText: "HTTP 200" }).first().textContent(), /acme\.estatekit\.test\/_emulator\/sink\/demo/);
  const failed = rows.filter({ hasText: "hooks.example.com" }).first();
  assert.match(await failed.textContent(), /failed: .*no network here/);

  // Delete the outside one after confirming.
  const row = page.locator("#webhooks-table tbody tr", { hasText: "hooks.example.com" });
  await row.getByRole("button", { name: /Delete webhook/ }).click();
  await page.click("dialog.confirm #confirm-ok");
  await row.waitFor({ state: "detached" });
  assert.equal(await page.locator("#webhooks-table tbody tr").count(), 1);
  onlyFiles(page);
  noErrors(page);
});

test("in-page documents: upload two files (one converted to PNG), filter by type chip, details, delete; drop six and page through them", async () => {
  const page = await openPage();
  await page.click("#tab-documents");
  const jpeg = await makeJpeg(page);
  await page.setInputFiles("#upload-files", [
    { name: "lease <b>signed</b>.txt", mimeType: "text/plain", buffer: Buffer.from("lease agreement\n") },
    { name: "photo.jpg", mimeType: "image/jpeg", buffer: jpeg },
  ]);
  await page.fill("#link-id", "unit-e2e");
  await page.selectOption("#upload-type", "MOVE_IN");
  await page.locator(".upload-item", { hasText: "photo.jpg" }).getByLabel("Image format").selectOption("PNG");
  await page.click("#upload-button");
  await page.waitForFunction(() => document.querySelectorAll("#upload-queue .upload-item.done").length === 2);
  assert.deepEqual(await page.$$eval("#upload-queue progress", (els) => els.map((p) => p.value)), [100, 100]);
  await page.waitForFunction(() => document.querySelectorAll("#documents-table tbody tr").length === 2);
  const titles = await page.$$eval("#documents-table .doc-title", (els) => els.map((e) => e.textContent).sort());
  assert.equal(titles[0], "lease <b>signed</b>.txt");
  assert.equal(await page.locator("#documents-table b").count(), 0);

  await page.click('.chip[data-type="CONTRACT"]');
  await page.locator("#doc-list .empty").waitFor();
  await page.click('.chip[data-type="CONTRACT"]');
  await page.waitForFunction(() => document.querySelectorAll("#documents-table tbody tr").length === 2);

  const rows = page.locator("#documents-table tbody tr");
  await rows.filter({ hasText: "photo." }).getByRole("button", { name: /Details/ }).click();
  await page.locator('#doc-details-body dd[data-key="mimeType"]').waitFor();
  assert.equal(await page.textContent('#doc-details-body dd[data-key="mimeType"]'), "image/png");
  assert.equal(await page.textContent('#doc-details-body dd[data-key="unitId"]'), "unit-e2e");
  await page.click("#doc-details-delete");
  await page.click("dialog.confirm #confirm-ok");
  await page.waitForFunction(() => document.querySelectorAll("#documents-table tbody tr").length === 1);
  assert.ok(await page.isHidden("#doc-details"));

  // Drag and drop six files, then page through them five at a time.
  const dataTransfer = await page.evaluateHandle(() => {
    const dt = new DataTransfer();
    for (let i = 1; i <= 6; i += 1) dt.items.add(new File([`file ${i}`], `dropped-${i}.txt`, { type: "text/plain" }));
    return dt;
  });
  await page.dispatchEvent("#drop-zone", "drop", { dataTransfer });
  await page.selectOption("#link-kind", "propertyGroup");
  await page.fill("#link-id", "group-7");
  await page.fill("#link-property-id", "prop-7");
  await page.click("#upload-button");
  await page.waitForFunction(() => document.querySelectorAll("#upload-queue .upload-item.done").length === 8);
  await page.selectOption("#f-take", "5");
  await page.click("#doc-search");
  await page.waitForFunction(() => document.querySelectorAll("#documents-table tbody tr").length === 5);
  await page.click("#doc-next");
  await page.waitForFunction(() => document.querySelectorAll("#documents-table tbody tr").length === 1);
  assert.match(await page.textContent("#doc-range"), /Showing 6–6/);
  onlyFiles(page);
  noErrors(page);
});

test("in-page messages: a filter is asked for first; cand-1's thread with sides, unread marks, replies, attachments, the XSS text as text", async () => {
  const page = await openPage();
  await page.click("#tab-messages");
  await page.click("#messages-show");
  await page.locator("#messages-validation").waitFor();
  await page.click("#tab-network");
  assert.equal(await page.locator("#network-rows tr", { hasText: "messages" }).count(), 0, "a messages call was made");

  await showMessages(page, "cand-1");
  const count = await page.locator("#thread .msg").count();
  assert.ok(count >= 8, `${count} messages`);
  assert.ok((await page.locator("#thread .msg.from-admin").count()) > 0);
  assert.ok((await page.locator("#thread .msg.from-candidate").count()) > 0);
  assert.ok((await page.locator("#thread .msg.unread .unread-badge").count()) > 0);
  const reply = page.locator("#thread .msg a.reply-to").first();
  const target = (await reply.textContent()).match(/Reply to (\S+?)(:|$)/)[1];
  await reply.click();
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.id), target);
  assert.match(await page.locator("#thread .attachment").first().textContent(), /^\S.* (application|image)\/\S+ · \d+(\.\d)? (B|KB|MB)$/);
  const texts = await page.$$eval("#thread .msg .text", (els) => els.map((e) => e.textContent));
  assert.ok(texts.includes("<img src=x onerror=alert(1)>"));
  assert.equal(await page.locator("#thread img").count(), 0);
  await page.waitForTimeout(200);
  onlyFiles(page);
  noErrors(page);
});

test("in-page network: a call and a retried call (the in-page service's 503, then success); a wrong token's 401", async () => {
  const page = await openPage();
  await page.click("#tab-network");
  const rows = page.locator("#network-rows tr");
  await rows.filter({ hasText: "listWebhooks" }).filter({ hasText: "done" }).first().waitFor();
  const response = rows.filter({ hasText: "listWebhooks" }).filter({ hasText: "response" }).first();
  assert.match(await response.textContent(), /GET \/api\/external-integrations\/webhooks/);
  assert.match(await response.textContent(), /request id req-\d+/);
  assert.match(await response.textContent(), /rate limit \d+\/\d+/);

  await rows.filter({ hasText: "listDocuments" }).filter({ hasText: "done" }).first().waitFor();
  await page.click("#network-clear");
  await page.click("#network-simulate");
  await page.locator("#network-status", { hasText: "retried" }).waitFor();
  const texts = await rows.allTextContents();
  assert.deepEqual(await networkKinds(page), ["done", "response", "request", "retry", "response", "request"], texts.join("\n"));
  assert.match(texts[3], /http 503/);
  assert.match(texts[0], /2 attempts/);

  // A wrong token: the in-page service answers 401, shown next to the list.
  await page.fill("#token", "wrong-token");
  await page.click("#connect-button");
  await page.click("#tab-webhooks");
  await page.locator("#webhooks-error").waitFor();
  assert.match(await page.textContent("#webhooks-error"), /HTTP 401/);
  assert.match(await page.textContent("#connection-status"), /rejected the token \(HTTP 401\)/);
  assert.ok(!page.url().includes("wrong-token"));
  onlyFiles(page);
  noErrors(page);
});

test("?service=server on the static host: no emulator there, said next to the list; estatekit/testing is not loaded", async () => {
  const page = await openPage(DESKTOP, "www/?service=server");
  assert.equal(await page.inputValue("#service-mode"), "server");
  assert.equal(await page.inputValue("#base-url"), server.url);
  assert.doesNotMatch(await page.textContent("#connection-status"), /emulator/);
  assert.ok(await page.isHidden("#event-form"));
  await page.locator("#webhooks-error").waitFor();
  assert.match(await page.textContent("#webhooks-error"), /HTTP 404/);
  assert.deepEqual(page.requests.filter((url) => url.includes("testing")), []);
  // The switch then starts the in-page service.
  await page.selectOption("#service-mode", "in-page");
  await page.locator("#connection-status", { hasText: "(emulator in this page)" }).waitFor();
  await page.locator("#webhooks-list .empty").waitFor();
  assert.ok(await page.isVisible("#event-form"));
  noErrors(page);
});

test("in-page screenshots at 1280x800 and 390x844, without horizontal scrolling", async () => {
  mkdirSync(SHOTS, { recursive: true });
  for (const [size, viewport] of [["1280x800", DESKTOP], ["390x844", PHONE]]) {
    const page = await openPage(viewport);
    await registerWebhook(page, "LISTING_CANDIDATE_APPLIED");
    await page.selectOption("#event-type", "LISTING_CANDIDATE_APPLIED");
    await page.click("#event-send");
    await page.locator("#deliveries-table tbody tr", { hasText: "HTTP 200" }).waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(SHOTS, `in-page-webhooks-${size}.png`) });
    await showMessages(page, "cand-1");
    await page.screenshot({ path: path.join(SHOTS, `in-page-messages-${size}.png`) });
    for (const tab of ["webhooks", "documents", "messages", "live", "network"]) {
      await page.click(`#tab-${tab}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${tab} tab scrolls sideways by ${overflow}px at ${size}`);
    }
    noErrors(page);
  }
});
