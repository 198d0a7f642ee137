// End-to-end tests of the demo admin console (www/) in the system Chromium, against the emulator
// (the page's server mode), plus the switch to the in-page service from the emulator's page.
// The in-page mode from a static host: in-page.test.mjs.
// Run: make test-e2e   (or: node --test tests/e2e/ after `make pkg emulator demo-static`)
import { test, before, after, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { launchChromium, startEmulator as startLocalEmulator } from "../../scripts/local.mjs";
import {
  ROOT,
  SHOTS,
  DESKTOP,
  PHONE,
  openPage as open,
  noErrors,
  makeJpeg,
  registerWebhook,
  showMessages,
  callServer,
} from "./helpers.mjs";

const TOKEN = "dev-token";

let emulator;
let base;
let browser;
const contexts = [];

/** Starts the emulator on a free port serving www/ and pkg/ (`url`, `stop()`). */
function startEmulator() {
  assert.ok(existsSync(path.join(ROOT, "pkg/estatekit.js")), "pkg/ is missing: run `make pkg` first");
  return startLocalEmulator(["--rate-limit", "0", "--static", "www", "--static", "/pkg=pkg"]);
}

/** Calls the emulator from the test (admin API or the service API with the dev token). */
const call = (route, init) => callServer(base, TOKEN, route, init);

async function graphqlCount() {
  const { body } = await call(`/_emulator/counters?token=${TOKEN}`);
  return body.routes["POST /api/reporting/graphql"] ?? 0;
}

/** A fresh page on the demo (`?query` appended), connected with the defaults. */
function openPage(viewport = DESKTOP, query = "") {
  return open(browser, contexts, `${base}/${query}`, viewport);
}

before(async () => {
  emulator = await startEmulator();
  base = emulator.url;
  browser = await launchChromium();
});

beforeEach(async () => {
  await call("/_emulator/reset", { method: "POST" });
  while (contexts.length) await contexts.pop().close();
});

after(async () => {
  await browser?.close();
  await emulator?.stop();
});

test("the page connects to the emulator with the defaults; the token stays out of the URL and localStorage", async () => {
  const page = await openPage();
  assert.equal(await page.inputValue("#service-mode"), "server");
  assert.equal(await page.inputValue("#base-url"), base);
  assert.equal(await page.inputValue("#token"), TOKEN);
  assert.match(await page.textContent("#connection-status"), /Connected to .*\(emulator\)/);
  await page.locator("#webhooks-list .empty").waitFor();

  // Connect again through the form (Enter in the token field).
  await page.fill("#token", TOKEN);
  await page.press("#token", "Enter");
  await page.locator("#webhooks-list .empty").waitFor();
  assert.ok(!page.url().includes(TOKEN), `token in the URL: ${page.url()}`);
  const stored = await page.evaluate(() => ({ local: { ...localStorage }, session: JSON.stringify({ ...sessionStorage }) }));
  assert.deepEqual(stored.local, {});

  // Tabs work with the keyboard (arrow keys), and every input has a label.
  await page.focus("#tab-webhooks");
  await page.keyboard.press("ArrowRight");
  assert.equal(await page.getAttribute("#tab-documents", "aria-selected"), "true");
  assert.ok(await page.isVisible("#panel-documents"));
  assert.ok(await page.isHidden("#panel-webhooks"));
  await page.keyboard.press("End");
  assert.equal(await page.getAttribute("#tab-network", "aria-selected"), "true");
  const unlabelled = await page.evaluate(() =>
    [...document.querySelectorAll("input, select, textarea")]
      .filter((el) => el.labels.length === 0 && !el.getAttribute("aria-label"))
      .map((el) => el.id || el.outerHTML),
  );
  assert.deepEqual(unlabelled, []);
  // The server mode never loads estatekit/testing.
  assert.deepEqual(page.requests.filter((url) => url.includes("testing")), []);
  noErrors(page);
});

test("an invalid base URL is reported next to the connection form, with its kind", async () => {
  const page = await openPage();
  await page.fill("#base-url", "ftp://example.invalid");
  await page.click("#connect-button");
  const box = page.locator("#connect-error");
  await box.waitFor();
  assert.match(await box.textContent(), /kind: invalid_input/);
  assert.match(await box.textContent(), /baseUrl/);
  noErrors(page);
});

test("webhooks: register with grouped event types, send a test event and see its delivery, delete after confirming", async () => {
  const page = await openPage();
  // The 28 event types of EVENT_TYPES, grouped as in section 6.
  const groups = await page.$$eval("#webhook-type optgroup", (els) => els.map((g) => [g.label, g.children.length]));
  assert.deepEqual(groups.map((g) => g[0]), ["Listing", "Candidates", "Scheduling", "Contracting", "Owner", "Property", "Unit"]);
  const eventTypes = await page.evaluate(async () => (await import("/pkg/estatekit.js")).EVENT_TYPES.length);
  assert.equal(groups.reduce((n, g) => n + g[1], 0), eventTypes);
  assert.equal(eventTypes, 28);

  assert.equal(await page.inputValue("#webhook-url"), `${base}/_emulator/sink/demo`);
  await registerWebhook(page, "LISTING_CANDIDATE_APPLIED");
  const row = page.locator("#webhooks-table tbody tr", { hasText: "LISTING_CANDIDATE_APPLIED" });
  assert.match(await row.textContent(), new RegExp(`${base}/_emulator/sink/demo`));
  assert.match(await page.textContent("#webhook-form-status"), /Registered LISTING_CANDIDATE_APPLIED/);
  assert.equal((await call("/api/external-integrations/webhooks")).body.length, 1);

  // Test event (emulator only): the delivery shows up with HTTP 200.
  assert.ok(await page.isVisible("#event-form"));
  assert.equal(await page.inputValue("#event-type"), "LISTING_CANDIDATE_APPLIED");
  await page.click("#event-send");
  const delivery = page.locator("#deliveries-table tbody tr", { hasText: "HTTP 200" });
  await delivery.waitFor();
  assert.match(await delivery.textContent(), /LISTING_CANDIDATE_APPLIED/);
  assert.match(await page.textContent("#event-status"), /sent to 1 webhook/);
  const sink = (await call("/_emulator/sink")).body;
  assert.equal(sink.length, 1);
  assert.equal(sink[0].body.operation, "LISTING_CANDIDATE_APPLIED");

  // Delete: cancelling keeps it, confirming removes it.
  await row.getByRole("button", { name: /Delete webhook/ }).click();
  await page.locator("dialog.confirm[open]").waitFor();
  await page.keyboard.press("Escape");
  await page.locator("dialog.confirm[open]").waitFor({ state: "detached" }).catch(() => {});
  assert.equal(await page.locator("dialog.confirm[open]").count(), 0);
  assert.equal((await call("/api/external-integrations/webhooks")).body.length, 1);
  await row.getByRole("button", { name: /Delete webhook/ }).click();
  await page.click("dialog.confirm #confirm-ok");
  await page.locator("#webhooks-list .empty").waitFor();
  assert.equal((await call("/api/external-integrations/webhooks")).body.length, 0);
  noErrors(page);
});

test("webhooks: an invalid URL is reported next to the register form", async () => {
  const page = await openPage();
  await page.fill("#webhook-url", "not a url");
  await page.click("#webhook-register");
  const box = page.locator("#webhook-form-error");
  await box.waitFor();
  assert.match(await box.textContent(), /kind: invalid_input/);
  assert.equal(await page.getAttribute("#webhook-url", "aria-invalid"), "true");
  noErrors(page);
});

test("documents: upload two files (one image converted to PNG), find them by filter and type chip, open details, delete", async () => {
  const page = await openPage();
  await page.click("#tab-documents");
  const jpeg = await makeJpeg(page);
  await page.setInputFiles("#upload-files", [
    { name: "lease <b>signed</b>.txt", mimeType: "text/plain", buffer: Buffer.from("lease agreement\n") },
    { name: "photo.jpg", mimeType: "image/jpeg", buffer: jpeg },
  ]);
  assert.equal(await page.locator("#upload-queue .upload-item").count(), 2);
  // The resource path follows the kind and id, and the type/format fields are there.
  await page.selectOption("#link-kind", "unit");
  await page.fill("#link-id", "unit-e2e");
  assert.equal(await page.inputValue("#resource-path"), "units/unit-e2e");
  await page.selectOption("#upload-type", "MOVE_IN");
  const photo = page.locator(".upload-item", { hasText: "photo.jpg" });
  await photo.getByLabel("Image format").selectOption("PNG");
  assert.ok(await page.locator(".upload-item", { hasText: "lease" }).getByLabel("Image format").isDisabled());
  assert.match(await page.textContent("#upload-button"), /Upload 2 files/);
  await page.click("#upload-button");
  await page.waitForFunction(() => document.querySelectorAll("#upload-queue .upload-item.done").length === 2);
  assert.deepEqual(await page.$$eval("#upload-queue progress", (els) => els.map((p) => p.value)), [100, 100]);
  assert.match(await page.textContent("#upload-status"), /2 uploaded/);

  // The list is filtered by the unit just used.
  assert.equal(await page.inputValue("#f-unit"), "unit-e2e");
  const rows = page.locator("#documents-table tbody tr");
  await page.waitForFunction(() => document.querySelectorAll("#documents-table tbody tr").length === 2);
  const titles = await page.$$eval("#documents-table .doc-title", (els) => els.map((e) => e.textContent).sort());
  assert.equal(titles[0], "lease <b>signed</b>.txt"); // text, not markup
  assert.match(titles[1], /^photo\./);
  assert.equal(await page.locator("#documents-table b").count(), 0);

  // Type chips filter by type.
  await page.click('.chip[data-type="CONTRACT"]');
  await page.locator("#doc-list .empty").waitFor();
  await page.click('.chip[data-type="CONTRACT"]');
  await page.click('.chip[data-type="MOVE_IN"]');
  assert.equal(await page.getAttribute('.chip[data-type="MOVE_IN"]', "aria-pressed"), "true");
  await page.waitForFunction(() => document.querySelectorAll("#documents-table tbody tr").length === 2);

  // Details of the image: converted to PNG, linked to the unit.
  await rows.filter({ hasText: "photo." }).getByRole("button", { name: /Details/ }).click();
  const mime = page.locator('#doc-details-body dd[data-key="mimeType"]');
  await mime.waitFor();
  assert.equal(await mime.textContent(), "image/png");
  assert.equal(await page.textContent('#doc-details-body dd[data-key="unitId"]'), "unit-e2e");
  assert.equal(await page.textContent('#doc-details-body dd[data-key="type"]'), "MOVE_IN");
  const id = await page.textContent('#doc-details-body dd[data-key="id"]');

  // Delete it from the details view.
  await page.click("#doc-details-delete");
  await page.click("dialog.confirm #confirm-ok");
  await page.waitForFunction(() => document.querySelectorAll("#documents-table tbody tr").length === 1);
  assert.ok(await page.isHidden("#doc-details"));
  assert.equal((await call(`/api/file-storage/company/documents/${id}/metadata`)).status, 404);
  noErrors(page);
});

test("documents: drag and drop several files, then page through them with skip/take", async () => {
  const page = await openPage();
  await page.click("#tab-documents");
  const dataTransfer = await page.evaluateHandle(() => {
    const dt = new DataTransfer();
    for (let i = 1; i <= 6; i += 1) dt.items.add(new File([`file ${i}`], `dropped-${i}.txt`, { type: "text/plain" }));
    return dt;
  });
  await page.dispatchEvent("#drop-zone", "drop", { dataTransfer });
  assert.equal(await page.locator("#upload-queue .upload-item").count(), 6);
  await page.selectOption("#link-kind", "propertyGroup");
  await page.fill("#link-id", "group-7");
  await page.fill("#link-property-id", "prop-7");
  assert.equal(await page.inputValue("#resource-path"), "properties/prop-7");
  await page.click("#upload-button");
  await page.waitForFunction(() => document.querySelectorAll("#upload-queue .upload-item.done").length === 6);
  const listed = (await call("/api/file-storage/company/documents/metadata?propertyGroupId=group-7")).body;
  assert.equal(listed.length, 6);
  assert.ok(listed.every((d) => d.propertyId === "prop-7"));

  await page.selectOption("#f-take", "5");
  await page.click("#doc-search");
  await page.waitForFunction(() => document.querySelectorAll("#documents-table tbody tr").length === 5);
  assert.ok(await page.isDisabled("#doc-prev"));
  assert.ok(await page.isEnabled("#doc-next"));
  await page.click("#doc-next");
  await page.waitForFunction(() => document.querySelectorAll("#documents-table tbody tr").length === 1);
  assert.match(await page.textContent("#doc-range"), /Showing 6–6/);
  assert.ok(await page.isDisabled("#doc-next"));
  await page.click("#doc-prev");
  await page.waitForFunction(() => document.querySelectorAll("#documents-table tbody tr").length === 5);
  noErrors(page);
});

test("messages: the form asks for a filter before sending any request", async () => {
  const page = await openPage();
  await page.click("#tab-messages");
  const before = await graphqlCount();
  await page.click("#messages-show");
  const message = page.locator("#messages-validation");
  await message.waitFor();
  assert.match(await message.textContent(), /at least one/);
  assert.equal(await page.getAttribute("#m-candidate", "aria-invalid"), "true");
  assert.equal(await page.locator("#thread .msg").count(), 0);
  assert.equal(await graphqlCount(), before, "a GraphQL request was sent");
  noErrors(page);
});

test("messages: cand-1's thread with sides, unread marks, reply links, attachments, and the XSS text as text", async () => {
  const page = await openPage();
  await showMessages(page, "cand-1");
  const expected = (
    await call("/api/reporting/graphql", {
      json: { query: '{messages(input:{filter:{candidateId:"cand-1"}}){id sentBy isRead replyToMessageId attachments{name}}}' },
    })
  ).body.data.messages;
  assert.ok(expected.length >= 8);
  assert.equal(await page.locator("#thread .msg").count(), expected.length);

  // ADMIN on the right, CANDIDATE on the left.
  const admin = await page.locator("#thread .msg.from-admin").first().boundingBox();
  const candidate = await page.locator("#thread .msg.from-candidate").first().boundingBox();
  const thread = await page.locator("#thread").boundingBox();
  assert.ok(Math.abs(candidate.x - thread.x) < 2, "candidate messages start at the left edge");
  assert.ok(Math.abs(admin.x + admin.width - (thread.x + thread.width)) < 2, "admin messages end at the right edge");

  // Unread marked.
  const unread = expected.filter((m) => m.isRead === false).length;
  assert.ok(unread > 0);
  assert.equal(await page.locator("#thread .msg.unread .unread-badge").count(), unread);

  // Replies link to the message they answer.
  const reply = expected.find((m) => m.replyToMessageId);
  await page.locator(`#thread .msg[data-id="${reply.id}"] a.reply-to`).click();
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.id), reply.replyToMessageId);

  // Attachments: name, type and a human-readable size.
  const withFiles = expected.find((m) => m.attachments.length > 0);
  const files = page.locator(`#thread .msg[data-id="${withFiles.id}"] .attachment`);
  assert.equal(await files.count(), withFiles.attachments.length);
  assert.match(await files.first().textContent(), /^\S.* (application|image)\/\S+ · \d+(\.\d)? (B|KB|MB)$/);

  // The seeded `<img src=x onerror=alert(1)>` is shown as those characters.
  const texts = await page.$$eval("#thread .msg .text", (els) => els.map((e) => e.textContent));
  assert.ok(texts.includes("<img src=x onerror=alert(1)>"));
  assert.equal(await page.locator("#thread img").count(), 0);
  await page.waitForTimeout(200);
  noErrors(page);
});

test("a wrong token: the 401 is shown next to the list and the query it broke", async () => {
  const page = await openPage();
  await page.fill("#token", "wrong-token");
  await page.click("#connect-button");
  const box = page.locator("#webhooks-error");
  await box.waitFor();
  const text = await box.textContent();
  assert.match(text, /HTTP 401/);
  assert.match(text, /kind: unauthorized/);
  assert.match(text, /token/);
  assert.equal(await page.getAttribute("#webhooks-error", "data-status"), "401");
  assert.match(await page.textContent("#connection-status"), /rejected the token \(HTTP 401\)/);

  await page.click("#tab-messages");
  await page.fill("#m-candidate", "cand-1");
  await page.click("#messages-show");
  await page.locator("#messages-error").waitFor();
  assert.match(await page.textContent("#messages-error"), /HTTP 401/);
  noErrors(page);
});

test("network: a call and a retried call (the emulator's 503, then success) appear newest first", async () => {
  await call("/_emulator/reset", { method: "POST" });
  const page = await openPage();
  // The page listed the webhooks when it connected: a call of its own.
  await page.click("#tab-network");
  const rows = page.locator("#network-rows tr");
  // It also lists the documents, and either call may end first: look at the webhooks call's rows only.
  await rows.filter({ hasText: "listWebhooks" }).filter({ hasText: "done" }).first().waitFor();
  await rows.filter({ hasText: "listDocuments" }).filter({ hasText: "done" }).first().waitFor();
  const own = rows.filter({ hasText: "listWebhooks" });
  const ownKinds = await own.evaluateAll((trs) => trs.map((tr) => tr.querySelector("td:nth-child(4)").textContent));
  assert.deepEqual(ownKinds, ["done", "response", "request"], "the call's events, newest first");
  const response = own.filter({ hasText: "response" }).first();
  assert.match(await response.textContent(), /GET \/api\/external-integrations\/webhooks/);
  assert.match(await response.textContent(), /200/);
  assert.match(await response.textContent(), /request id req-\d+/);

  // The emulator answers the next list with a 503; the client retries it.
  await page.click("#network-clear");
  assert.equal(await rows.count(), 0);
  await page.click("#network-simulate");
  await page.locator("#network-status", { hasText: "retried" }).waitFor();
  // The tab renders its events at the next animation frame, which may come after the status.
  await rows.filter({ hasText: "done" }).first().waitFor();
  const texts = await rows.allTextContents();
  const kinds = await page.$$eval("#network-rows tr td:nth-child(4)", (cells) => cells.map((c) => c.textContent));
  assert.deepEqual(kinds, ["done", "response", "request", "retry", "response", "request"], texts.join("\n"));
  assert.match(texts[1], /200/);
  assert.match(texts[3], /http 503/);
  assert.match(texts[3], /waits \d+(\.\d)? ms before attempt 2/);
  assert.match(texts[4], /503/);
  assert.match(texts[0], /2 attempts/);
  const callIds = new Set(texts.map((t) => t.match(/#(\d+)/)[1]));
  assert.equal(callIds.size, 1, "one call");
  const token = await page.inputValue("#token");
  assert.ok(!texts.join("").includes(token), "the token is in no row");
  noErrors(page);
});

test("screenshots of each tab at 1280x800 and 390x844, without horizontal scrolling", async () => {
  mkdirSync(SHOTS, { recursive: true });
  for (const [size, viewport] of [["1280x800", DESKTOP], ["390x844", PHONE]]) {
    await call("/_emulator/reset", { method: "POST" });
    const page = await openPage(viewport);
    await registerWebhook(page, "LISTING_CANDIDATE_APPLIED");
    await registerWebhook(page, "UNIT_CREATED");
    await page.selectOption("#event-type", "LISTING_CANDIDATE_APPLIED");
    await page.click("#event-send");
    await page.locator("#deliveries-table tbody tr", { hasText: "HTTP 200" }).waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(SHOTS, `webhooks-${size}.png`) });
    await page.screenshot({ path: path.join(SHOTS, `webhooks-${size}-full.png`), fullPage: true });

    await page.click("#tab-documents");
    const jpeg = await makeJpeg(page);
    await page.setInputFiles("#upload-files", [
      { name: "move-in-protocol.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n%demo\n") },
      { name: "kitchen.jpg", mimeType: "image/jpeg", buffer: jpeg },
    ]);
    await page.fill("#link-id", "unit-1");
    await page.selectOption("#upload-type", "MOVE_IN");
    await page.click("#upload-button");
    await page.waitForFunction(() => document.querySelectorAll("#documents-table tbody tr").length === 2);
    await page.locator("#documents-table tbody tr").first().getByRole("button", { name: /Details/ }).click();
    await page.locator('#doc-details-body dd[data-key="id"]').waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(SHOTS, `documents-${size}.png`) });
    await page.screenshot({ path: path.join(SHOTS, `documents-${size}-full.png`), fullPage: true });

    await showMessages(page, "cand-1"); // on a phone the page scrolls to the thread itself
    await page.screenshot({ path: path.join(SHOTS, `messages-${size}.png`) });
    await page.screenshot({ path: path.join(SHOTS, `messages-${size}-full.png`), fullPage: true });

    await page.click("#tab-network");
    await page.locator("#network-rows tr").first().waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(SHOTS, `network-${size}.png`) });

    for (const tab of ["webhooks", "documents", "messages", "live", "network"]) {
      await page.click(`#tab-${tab}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${tab} tab scrolls sideways by ${overflow}px at ${size}`);
    }
    noErrors(page);
  }
});

test("the service switch: in this page the demo uses the in-page emulator (no request reaches the server's API), and back", async () => {
  await call("/api/external-integrations/webhooks", { json: { type: "UNIT_CREATED", url: "https://example.com/server-hook" } });
  const page = await openPage();
  await page.locator("#webhooks-table tbody tr", { hasText: "server-hook" }).waitFor();
  // The server-mode page's own calls at connect (webhooks and documents, either may end first)
  // are over before the log is cleared: a late one of them cannot land in it afterwards.
  for (const operation of ["listWebhooks", "listDocuments"]) {
    await page.locator("#network-rows tr", { hasText: operation }).filter({ hasText: "done" }).first().waitFor({ state: "attached" });
  }
  await call("/_emulator/requests", { method: "DELETE" });
  const before = page.requests.length;

  await page.selectOption("#service-mode", "in-page");
  await page.locator("#connection-status", { hasText: "(emulator in this page)" }).waitFor();
  assert.equal(new URL(page.url()).searchParams.get("service"), "in-page");
  assert.equal(await page.inputValue("#base-url"), "https://acme.estatekit.test");
  assert.equal(await page.getAttribute("#base-url", "readonly"), "");
  assert.equal(await page.inputValue("#token"), TOKEN);
  // Its own data: none of the server's webhooks; the suggested URL is its own sink.
  await page.locator("#webhooks-list .empty").waitFor();
  assert.equal(await page.inputValue("#webhook-url"), "https://acme.estatekit.test/_emulator/sink/demo");
  await registerWebhook(page, "LISTING_CANDIDATE_APPLIED");
  await page.selectOption("#event-type", "LISTING_CANDIDATE_APPLIED");
  await page.click("#event-send");
  await page.locator("#deliveries-table tbody tr", { hasText: "HTTP 200" }).waitFor();
  await showMessages(page, "cand-1");
  assert.ok((await page.locator("#thread .msg").count()) >= 8);

  // The page fetched only estatekit/testing's files from the server; the server saw no API call.
  const fetched = page.requests.slice(before).map((url) => new URL(url).pathname);
  assert.deepEqual(fetched.sort(), [
    "/pkg/estatekit_testing_wasm.js",
    "/pkg/estatekit_testing_wasm_bg.wasm",
    // estatekit/testing's memory event log (estatekit/live's, re-exported) and what it imports.
    "/pkg/live_log.js",
    "/pkg/redis_send.js",
    "/pkg/testing.js",
    "/pkg/testing_service.js",
  ]);
  const seen = (await call("/_emulator/requests")).body.filter((r) => !r.path.startsWith("/_emulator/"));
  assert.deepEqual(seen, [], "requests that reached the emulator");
  assert.equal((await call("/api/external-integrations/webhooks")).body.length, 1);

  // A reload keeps the mode (the URL parameter); a new page has a new in-page service.
  await page.reload();
  await page.waitForSelector("body[data-ready]");
  assert.equal(await page.inputValue("#service-mode"), "in-page");
  await page.click("#tab-webhooks"); // the tab was kept: messages
  await page.locator("#webhooks-list .empty").waitFor();

  // Back to the server: its webhook again, and its own sink suggested.
  await page.selectOption("#service-mode", "server");
  await page.locator("#connection-status", { hasText: "(emulator)" }).waitFor();
  assert.equal(new URL(page.url()).searchParams.get("service"), "server");
  assert.equal(await page.inputValue("#base-url"), base);
  assert.equal(await page.getAttribute("#base-url", "readonly"), null);
  await page.locator("#webhooks-table tbody tr", { hasText: "server-hook" }).waitFor();
  assert.equal(await page.inputValue("#webhook-url"), `${base}/_emulator/sink/demo`);
  noErrors(page);
});
