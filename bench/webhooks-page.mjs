// The page bench/cpu.mjs and bench/cold.mjs measure in: the optimised emulator serving pkg/ and
// bench/compare/, headless Chromium on its index.html, and in the page (as globals) `client` (the
// package's Client, 10 webhooks registered), `send` (the list's request by js/request.js's
// `sendRequest` as the module calls it, and `JSON.parse` of its text: the client without its
// WebAssembly half) and `WEBHOOKS` (the list's URL).
import { join } from "node:path";
import { launchChromium, root, startEmulator } from "../scripts/local.mjs";

/**
 * Starts the emulator and the browser and prepares the page.
 * @returns {Promise<{ page: import("playwright-core").Page, close: () => Promise<void> }>}
 */
export async function openWebhooksPage() {
  const emulator = await startEmulator(["--rate-limit", "0", "--static", join("bench", "compare"), "--static", `/pkg=${join(root, "pkg")}`], {
    bin: process.env.ESTATEKIT_EMULATOR_BIN ?? join(root, "target", "bench-emulator", "estatekit-emulator"),
  });
  let browser;
  try {
    browser = await launchChromium([]);
    const page = await browser.newPage();
    await page.goto(`${emulator.url}/index.html`);
    await page.evaluate(async () => {
      const m = await import("/pkg/estatekit.js");
      await m.default();
      const client = new m.Client({ baseUrl: location.origin, token: "dev-token" });
      for (const w of await client.listWebhooks()) await client.deleteWebhook(w.id);
      for (let i = 0; i < 10; i++) await client.registerWebhook({ type: "UNIT_CREATED", url: `${location.origin}/_emulator/sink/bench-${i}` });
      const { sendRequest } = await import("/pkg/snippets/js/request.js");
      const WEBHOOKS = `${location.origin}/api/external-integrations/webhooks`;
      const send = async () => JSON.parse((await sendRequest(undefined, undefined, 0, "GET", WEBHOOKS, "Bearer dev-token", false, undefined, undefined, 30_000)).text);
      Object.assign(globalThis, { client, send, WEBHOOKS });
    });
    const opened = browser;
    return {
      page,
      close: async () => {
        await opened.close();
        await emulator.stop();
      },
    };
  } catch (e) {
    await browser?.close();
    await emulator.stop();
    throw e;
  }
}
