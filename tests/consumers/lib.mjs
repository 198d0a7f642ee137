// Helpers of the consumer smoke tests: the packed tarball, installing it into a consumer
// project, the emulator, and headless Chromium.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { launchChromium, root, startEmulator as startLocalEmulator } from "../../scripts/local.mjs";

export { root };
export const pkgDir = `${root}pkg`;
const packDir = `${root}target/consumers`;
/** Where the consumer projects' package.json files expect the tarball. */
export const tarballPath = `${packDir}/estatekit.tgz`;

/** Runs `npm pack` inside pkg/ and copies the tarball to target/consumers/estatekit.tgz. */
export function pack() {
  mkdirSync(packDir, { recursive: true });
  const out = execFileSync("npm", ["pack", "--json", "--pack-destination", packDir], {
    cwd: pkgDir,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const [info] = JSON.parse(out);
  const files = info.files.map((f) => f.path).sort();
  if (!files.includes("estatekit.js")) {
    rmSync(`${packDir}/${info.filename}`);
    throw new Error(`pkg/ is not a finished build (packed ${files.join(", ")}): run make pkg`);
  }
  copyFileSync(`${packDir}/${info.filename}`, tarballPath);
  rmSync(`${packDir}/${info.filename}`);
  return info;
}

/** The tarball, packed again when pkg/ changed since (make test-consumers packs it first). */
export function tarball() {
  const built = Math.max(...readdirSync(pkgDir).map((f) => statSync(`${pkgDir}/${f}`).mtimeMs));
  if (!existsSync(tarballPath) || statSync(tarballPath).mtimeMs < built) pack();
  return tarballPath;
}

/** Installs the packed tarball into a consumer project (fresh node_modules, no lockfile). */
export function installPacked(dir) {
  tarball();
  rmSync(`${dir}/node_modules`, { recursive: true, force: true });
  execFileSync(
    "npm",
    ["install", "--no-package-lock", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"],
    { cwd: dir, stdio: ["ignore", "inherit", "inherit"] },
  );
}

/** Starts the built emulator on a free loopback port, rate limit off; `stop()` ends it. */
export const startEmulator = (args = []) => startLocalEmulator(["--rate-limit", "0", ...args]);

/** Registers a webhook directly over HTTP (what the pages then list). */
export async function registerWebhook(url, body, token = "dev-token") {
  const res = await fetch(`${url}/api/external-integrations/webhooks`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`registering a webhook: HTTP ${res.status}`);
  return res.headers.get("location");
}

/**
 * Opens `url` in headless Chromium and waits for the page to set `document.body.dataset.result`
 * (JSON). Returns it with the console messages, page errors and failed requests seen.
 */
export async function runPage(url, timeoutMs = 30_000) {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const consoleMessages = [];
    const pageErrors = [];
    const failed = [];
    page.on("console", (m) => consoleMessages.push(`${m.type()}: ${m.text()}`));
    page.on("pageerror", (e) => pageErrors.push(String(e)));
    page.on("requestfailed", (r) => failed.push(`${r.url()} ${r.failure()?.errorText}`));
    page.on("response", (r) => {
      if (r.status() >= 400) failed.push(`${r.url()} HTTP ${r.status()}`);
    });
    await page.goto(url);
    try {
      await page.waitForFunction(() => document.body.dataset.result, null, { timeout: timeoutMs });
    } catch (e) {
      const seen = [...consoleMessages, ...pageErrors, ...failed].join("\n  ");
      throw new Error(`${url}: no result in ${timeoutMs} ms (${e.message}); the page showed:\n  ${seen}`);
    }
    const result = JSON.parse(await page.evaluate(() => document.body.dataset.result));
    const wasm = await page.evaluate(() =>
      performance.getEntriesByType("resource").filter((e) => e.name.endsWith(".wasm")).map((e) => e.name),
    );
    return { result, consoleMessages, pageErrors, failed, wasm };
  } finally {
    await browser.close();
  }
}

/**
 * The browser checks both page consumers share: served by the emulator from `staticDir`, the
 * page lists a webhook registered beforehand (lazy init, no init() call), and with a wrong token
 * it gets an ApiError of kind `unauthorized`.
 */
export function browserChecks(test, assert, staticDir) {
  let emulator;
  test.before(async () => {
    emulator = await startEmulator(["--static", staticDir]);
  });
  test.after(() => emulator?.stop());

  test.it("completes a listWebhooks call in headless Chromium without calling init()", async () => {
    const hook = { type: "UNIT_CREATED", url: "http://127.0.0.1:9/estatekit-consumer" };
    const id = await registerWebhook(emulator.url, hook);
    const run = await runPage(`${emulator.url}/`);
    assert.deepEqual(run.pageErrors, []);
    assert.deepEqual(run.failed, []);
    assert.deepEqual(run.consoleMessages.filter((m) => /^(error|warning)/.test(m)), []);
    assert.equal(run.result.ok, true, run.result.message);
    assert.equal(run.result.baseUrl, emulator.url);
    assert.equal(run.result.eventTypes, 28);
    assert.deepEqual(
      run.result.webhooks.map((w) => [w.id, w.type, w.url]),
      [[id, hook.type, hook.url]],
    );
    assert.equal(run.wasm.length, 1, "the page fetched one .wasm file");
  });

  test.it("rejects with an ApiError of kind unauthorized for a wrong token", async () => {
    const run = await runPage(`${emulator.url}/?token=wrong-token`);
    assert.deepEqual(run.pageErrors, []);
    assert.equal(run.result.ok, false);
    assert.equal(run.result.apiError, true);
    assert.equal(run.result.kind, "unauthorized");
  });
}
