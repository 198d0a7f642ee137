// estatekit/testing in the browser engines: a page that imports `estatekit` and
// `estatekit/testing` through an import map (as the plain script consumer does), and the same
// scenario in a module Worker (tests/consumers/testing/: index.html, worker.html, worker.js,
// scenario.js). The service runs in the page; its fetch answers the Client in process, so the
// emulator that serves the files sees no API request at all.
import test from "node:test";
import assert from "node:assert/strict";
import { ENGINE_NAMES, enginesToRun, installPacked, root, runPage, startEmulator } from "./lib.mjs";

const dir = `${root}tests/consumers/testing`;

/**
 * The checks both pages share. The upload differs in WebKit (WebKitGTK 2.50): a Request whose
 * body is FormData holding a Blob cannot be read back by JavaScript (arrayBuffer, text, blob,
 * formData and body's reader all reject "InvalidStateError: Unable to read form data blob"),
 * so the service cannot read the client's upload request: the call rejects with `network` and
 * nothing is stored. Chromium and Firefox read it.
 */
function checkScenario(engine, result) {
  assert.equal(result.ok, true, result.message);
  assert.equal(result.baseUrl, "https://acme.estatekit.test");
  assert.deepEqual(result.webhooks, [
    { id: result.seededWebhooks[0], type: "UNIT_CREATED", url: "https://hooks.example.test/units" },
  ]);
  const { upload } = result;
  if (engine === "webkit") {
    assert.equal(upload.error?.apiError, true, JSON.stringify(upload.error));
    assert.equal(upload.error.kind, "network");
    assert.match(
      upload.error.message,
      /^upload document failed: network error reaching \S+ \(Unable to read form data blob\); the document may have been uploaded: list the documents/,
    );
    assert.deepEqual(result.documents, []);
  } else {
    assert.equal(upload.error, undefined, JSON.stringify(upload.error));
    assert.equal(upload.title, "page.txt");
    assert.equal(upload.size, upload.fileSize);
    assert.deepEqual(upload.reports, [[upload.fileSize, upload.fileSize]], "through fetch: one final progress report");
    assert.deepEqual(result.documents, [upload.id]);
  }
  assert.deepEqual(result.messages, [{ id: result.seededMessages[0], text: "Hello from the page" }]);
  assert.deepEqual(result.wrongToken, { apiError: true, kind: "unauthorized", status: 401 });
  assert.equal(result.otherOrigin, "TypeError");
  assert.deepEqual(result.requests, [
    "GET /api/external-integrations/webhooks",
    "GET /api/external-integrations/webhooks",
    ...(engine === "webkit" ? [] : ["POST /api/file-storage/company/documents"]),
    "GET /api/file-storage/company/documents/metadata",
    "POST /api/reporting/graphql",
    "GET /api/external-integrations/webhooks",
  ]);
}

test.describe("estatekit/testing in browser pages", () => {
  test.before(() => installPacked(dir));

  for (const engine of enginesToRun()) {
    test.describe(`in ${ENGINE_NAMES[engine]}`, () => {
      let emulator;
      test.before(async () => {
        emulator = await startEmulator(["--static", dir]);
      });
      test.after(() => emulator?.stop());

      /** What the serving emulator's own API saw: nothing, as the pages' service is in process. */
      async function apiRequestsSeen() {
        const records = await (await fetch(`${emulator.url}/_emulator/requests`)).json();
        return records.filter((r) => r.path.startsWith("/api/")).map((r) => `${r.method} ${r.path}`);
      }

      test.it("a page: a Client through service.fetch (webhooks with a 503 retried, upload, messages, 401, other origin)", async () => {
        const run = await runPage(engine, `${emulator.url}/index.html`);
        if (engine !== "webkit") {
          assert.deepEqual(run.pageErrors, []);
          assert.deepEqual(run.failed, []);
          assert.deepEqual(run.consoleMessages.filter((m) => /^(error|warning)/.test(m)), []);
        }
        checkScenario(engine, run.result);
        assert.equal(run.wasm.length, 2, `the page fetched estatekit's and the service's .wasm: ${run.wasm}`);
        assert.deepEqual(await apiRequestsSeen(), []);
      });

      test.it("a module Worker: the same, inside the worker", async () => {
        const run = await runPage(engine, `${emulator.url}/worker.html`);
        if (engine !== "webkit") {
          assert.deepEqual(run.pageErrors, []);
          assert.deepEqual(run.failed, []);
        }
        assert.equal(run.result.inWorker, true);
        assert.equal(run.result.workerScope, true, "the scenario ran in a WorkerGlobalScope");
        checkScenario(engine, run.result);
        assert.deepEqual(await apiRequestsSeen(), []);
      });
    });
  }
});
