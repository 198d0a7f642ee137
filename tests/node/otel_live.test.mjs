// estatekit/otel on estatekit/live's stream route, with OpenTelemetry's real SDK (in-memory
// metric reader): two streams on a memory log, events appended, the streams' frames read; the
// open streams (`estatekit.live.open_streams`), the events sent by type
// (`estatekit.live.events.sent`) and a point of the append-to-write delay
// (`estatekit.live.delay`) for each event written. No timing value is asserted.
import test from "node:test";
import assert from "node:assert/strict";
import { counted, recording } from "./otel_recording.mjs";

const pkg = new URL("../../pkg/", import.meta.url).href;
const { createEventStream, createMemoryEventLog } = await import(`${pkg}live.js`);

const decoder = new TextDecoder();

/**
 * A stream's reader: `until(text)` reads until what was read holds `text`.
 * @param {Response} response
 */
function reading(response) {
  assert.equal(response.status, 200);
  const reader = /** @type {ReadableStream<Uint8Array>} */ (response.body).getReader();
  let text = "";
  return {
    /** @param {string} wanted */
    async until(wanted) {
      while (!text.includes(wanted)) {
        const { value, done } = await reader.read();
        assert.ok(!done, `the stream ended before ${JSON.stringify(wanted)}: ${text}`);
        text += decoder.decode(value, { stream: true });
      }
      return text;
    },
    cancel: () => reader.cancel(),
  };
}

/** The sum of a histogram's point counts, by its attributes' JSON. */
function histogramCounts(metrics, name) {
  const metric = metrics.find((m) => m.name === name);
  assert.ok(metric, `no metric ${name} among ${metrics.map((m) => m.name).join(", ")}`);
  return Object.fromEntries(metric.points.map((p) => [JSON.stringify(p.attributes), /** @type {{ count: number }} */ (p.value).count]));
}

test.describe("estatekit/otel: estatekit/live's stream route", () => {
  test.it("two streams: open streams, events sent by type, a delay point per event written", async (t) => {
    const recorded = recording();
    const log = createMemoryEventLog();
    t.after(() => log.close());
    const route = createEventStream({
      log,
      heartbeatMs: 60_000,
      authorize: (request) => (new URL(request.url).searchParams.get("who") === "b" ? { account: "acme", types: ["UNIT_CREATED"] } : { account: "acme" }),
    });
    t.after(() => route.close());
    const instrumented = recorded.instrument(route);
    assert.equal(instrumented, route, "the same route comes back");
    assert.equal(recorded.instrument(route), route, "instrumented again: the same, nothing reported twice");

    const a = reading(await route(new Request("http://127.0.0.1/live?who=a")));
    const b = reading(await route(new Request("http://127.0.0.1/live?who=b")));
    // Each stream follows the log once it has told its starting position.
    await a.until("event: estatekit.position");
    await b.until("event: estatekit.position");
    assert.equal(route.open, 2);
    assert.deepEqual(counted(await recorded.metrics(), "estatekit.live.open_streams"), [[{}, 2]]);

    const first = await log.append("acme", { uuid: "u-1", type: "UNIT_CREATED", data: '{"operation":"UNIT_CREATED"}' });
    const second = await log.append("acme", { uuid: "u-2", type: "UNIT_DELETED", data: '{"operation":"UNIT_DELETED"}' });
    const third = await log.append("acme", { uuid: "u-3", type: "UNIT_CREATED", data: '{"operation":"UNIT_CREATED"}' });
    await a.until(`id: ${third}\n`);
    const seenByB = await b.until(`id: ${third}\n`);
    assert.ok(seenByB.includes(`id: ${second}\n\n`), "b gets the position only of the type it may not see");
    assert.ok(seenByB.includes(`id: ${first}\nevent: UNIT_CREATED\n`));

    const metrics = await recorded.metrics();
    assert.deepEqual(counted(metrics, "estatekit.live.events.sent"), [
      [{ "estatekit.webhook.event_type": "UNIT_CREATED" }, 4],
      [{ "estatekit.webhook.event_type": "UNIT_DELETED" }, 1],
    ]);
    const delay = metrics.find((m) => m.name === "estatekit.live.delay");
    assert.equal(delay?.unit, "s");
    assert.deepEqual(histogramCounts(metrics, "estatekit.live.delay"), {
      [JSON.stringify({ "estatekit.webhook.event_type": "UNIT_CREATED", "estatekit.live.catch_up": false })]: 4,
      [JSON.stringify({ "estatekit.webhook.event_type": "UNIT_DELETED", "estatekit.live.catch_up": false })]: 1,
    });

    // A page gone: its stream ends; close() ends the other.
    await b.cancel();
    assert.equal(route.open, 1);
    assert.deepEqual(counted(await recorded.metrics(), "estatekit.live.open_streams"), [[{}, 1]]);
    route.close();
    assert.equal(route.open, 0);
    assert.deepEqual(counted(await recorded.metrics(), "estatekit.live.open_streams"), [[{}, 0]]);
    await a.cancel();
  });

  test.it("a meter whose instruments throw breaks no stream: the events are written as without telemetry", async (t) => {
    const down = () => {
      throw new Error("telemetry down");
    };
    const instruments = { record: down, add: down };
    const meterProvider = { getMeter: () => ({ createHistogram: () => instruments, createCounter: () => instruments, createUpDownCounter: () => instruments }) };
    const { instrument } = await import(`${pkg}otel.js`);
    const log = createMemoryEventLog();
    t.after(() => log.close());
    const route = instrument(createEventStream({ log, heartbeatMs: 60_000, authorize: () => ({ account: "acme" }) }), { meterProvider });
    t.after(() => route.close());
    const page = reading(await route(new Request("http://127.0.0.1/live")));
    await page.until("event: estatekit.position");
    const id = await log.append("acme", { uuid: "u-1", type: "UNIT_CREATED", data: "{}" });
    await page.until(`id: ${id}\nevent: UNIT_CREATED\ndata: {}\n`);
    route.close();
    assert.equal(route.open, 0);
    await page.cancel();
  });

  test.it("a stream that resumes: the events read back are sent with catch_up; one opened before instrument is not reported", async (t) => {
    const recorded = recording();
    const log = createMemoryEventLog();
    t.after(() => log.close());
    const route = createEventStream({ log, heartbeatMs: 60_000, authorize: () => ({ account: "acme" }) });
    t.after(() => route.close());
    const before = reading(await route(new Request("http://127.0.0.1/live")));
    await before.until("event: estatekit.position");
    const start = (await log.read("acme", null)).position;
    const first = await log.append("acme", { uuid: "u-1", type: "LISTING_CREATED", data: "{}" });
    await before.until(`id: ${first}\n`);
    recorded.instrument(route);

    const resumed = reading(await route(new Request(`http://127.0.0.1/live?lastEventId=${encodeURIComponent(start)}`)));
    await resumed.until(`id: ${first}\nevent: LISTING_CREATED\n`);
    const metrics = await recorded.metrics();
    assert.deepEqual(counted(metrics, "estatekit.live.open_streams"), [[{}, 1]], "the stream opened before instrument is not counted");
    assert.deepEqual(counted(metrics, "estatekit.live.events.sent"), [[{ "estatekit.webhook.event_type": "LISTING_CREATED" }, 1]]);
    assert.deepEqual(histogramCounts(metrics, "estatekit.live.delay"), {
      [JSON.stringify({ "estatekit.webhook.event_type": "LISTING_CREATED", "estatekit.live.catch_up": true })]: 1,
    });
    route.close();
    assert.deepEqual(counted(await recorded.metrics(), "estatekit.live.open_streams"), [[{}, 0]]);
    await Promise.allSettled([before.cancel(), resumed.cancel()]);
  });
});
