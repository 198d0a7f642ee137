// The browser engines the consumer pages run in, behind one interface:
// - chromium: Debian's Chromium through playwright-core (scripts/local.mjs);
// - firefox: Debian's Firefox ESR through geckodriver (cargo install, see scripts/setup.sh) and
//   selenium-webdriver, an ordinary WebDriver client, with WebDriver BiDi for the console, page
//   errors and responses; kept off the network by webdriver.json's options and the environment
//   set below. playwright's own Firefox is a patched build that cannot be installed here, and
//   selenium-manager (the driver downloader shipped in selenium-webdriver) is never run: the
//   geckodriver path is passed explicitly, and SE_MANAGER_PATH points nowhere so any stray call
//   fails at once instead of reaching the network.
// - webkit: WebKitGTK's MiniBrowser (Debian's webkit2gtk-driver) through WebKitWebDriver,
//   started by scripts/webkit-webdriver.sh (its environment keeps the browser's requests on
//   loopback), with selenium-webdriver in a plain W3C session. MiniBrowser has no headless mode:
//   it needs a display (make test-consumers runs the tests under xvfb-run -a). WebKitWebDriver
//   2.50 has no WebDriver BiDi (a session asking for webSocketUrl is refused) and no log
//   endpoint, and MiniBrowser in automation mode does not write console messages to stdout, so
//   this engine reports no console messages, page errors or failed requests (null, not []).
// ESTATEKIT_BROWSERS ("chromium firefox webkit", the Makefile's BROWSER) picks the engines.
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { launchChromium, root } from "../../scripts/local.mjs";

/** Every engine the consumers can run in, by the name BROWSER uses. */
export const ENGINES = ["chromium", "firefox", "webkit"];

/** How test names call each engine. */
export const ENGINE_NAMES = { chromium: "Chromium", firefox: "Firefox", webkit: "WebKit" };

/** The engines to run: ESTATEKIT_BROWSERS (space or comma separated), else all of them. */
export function enginesToRun() {
  const asked = (process.env.ESTATEKIT_BROWSERS ?? "").split(/[\s,]+/).filter(Boolean);
  for (const e of asked) {
    if (!ENGINES.includes(e)) throw new Error(`ESTATEKIT_BROWSERS: unknown engine ${e} (use ${ENGINES.join(", ")})`);
  }
  return asked.length ? asked : ENGINES;
}

/** geckodriver: GECKODRIVER, else the one scripts/setup.sh installs with cargo. */
export const geckodriverPath = () => process.env.GECKODRIVER ?? `${homedir()}/.cargo/bin/geckodriver`;

/** Firefox's options (binary, -headless, the prefs that keep it off the network): webdriver.json. */
export const firefoxOptions = () => JSON.parse(readFileSync(`${root}webdriver.json`, "utf8"))["moz:firefoxOptions"];

/** WebKitWebDriver: WEBKITDRIVER, else Debian's (scripts/setup.sh installs webkit2gtk-driver). */
export const webkitDriverPath = () => process.env.WEBKITDRIVER ?? "/usr/bin/WebKitWebDriver";

/** MiniBrowser's binary and arguments (--automation): webdriver.json's webkitgtk:browserOptions. */
export const webkitOptions = () => JSON.parse(readFileSync(`${root}webdriver.json`, "utf8"))["webkitgtk:browserOptions"];

/**
 * Opens a browser of `engine` on a blank page. Returns `{ goto(url), evaluate(fn),
 * waitFor(fn, timeoutMs), close() }` plus what the page showed, as text lines in arrays that
 * fill as it runs: `consoleMessages` ("<type>: <text>", types as Chromium names them: log,
 * warning, error...), `pageErrors` (uncaught exceptions) and `failed` (requests that failed,
 * or answered 400 or more); each is null where the engine's driver cannot report it (WebKit).
 * `fn` is a function without arguments run in the page.
 */
export async function openPage(engine) {
  if (engine === "chromium") return openChromium();
  if (engine === "firefox") return openFirefox();
  if (engine === "webkit") return openWebKit();
  throw new Error(`unknown engine ${engine}`);
}

async function openChromium() {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const shown = { consoleMessages: [], pageErrors: [], failed: [] };
    page.on("console", (m) => shown.consoleMessages.push(`${m.type()}: ${m.text()}`));
    page.on("pageerror", (e) => shown.pageErrors.push(String(e)));
    page.on("requestfailed", (r) => shown.failed.push(`${r.url()} ${r.failure()?.errorText}`));
    page.on("response", (r) => {
      if (r.status() >= 400) shown.failed.push(`${r.url()} HTTP ${r.status()}`);
    });
    return {
      ...shown,
      goto: async (url) => void (await page.goto(url)),
      evaluate: (fn) => page.evaluate(fn),
      waitFor: async (fn, timeoutMs) => void (await page.waitForFunction(fn, null, { timeout: timeoutMs })),
      close: () => browser.close(),
    };
  } catch (e) {
    await browser.close();
    throw e;
  }
}

async function openFirefox() {
  const driverPath = geckodriverPath();
  if (!existsSync(driverPath)) throw new Error(`${driverPath} is missing: run scripts/setup.sh (or set GECKODRIVER)`);
  process.env.SE_MANAGER_PATH = "/nonexistent/selenium-manager-is-not-used";
  const firefox = await import("selenium-webdriver/firefox.js");
  // webdriver.json's moz:firefoxOptions as they are, as wasm-bindgen-test-runner sends them.
  const options = new firefox.Options().enableBidi();
  options.set("moz:firefoxOptions", firefoxOptions());
  // Firefox inherits geckodriver's environment (moz:firefoxOptions' env is for Android only):
  // MOZ_DISABLE_NONLOCAL_CONNECTIONS=1 refuses every non-loopback connection and makes Firefox
  // honour webdriver.json's services.settings.server, so it makes no DNS look-up either.
  const service = new firefox.ServiceBuilder(driverPath)
    .setEnvironment({ ...process.env, MOZ_DISABLE_NONLOCAL_CONNECTIONS: "1" })
    .build();
  const driver = firefox.Driver.createSession(options, service);
  try {
    await driver.getSession();
    const bidi = await driver.getBidi();
    const shown = { consoleMessages: [], pageErrors: [], failed: [] };
    bidi.on("log.entryAdded", (e) => {
      if (e.type === "javascript") return void shown.pageErrors.push(e.text);
      // console.warn is "warning" in Chromium's naming, so the checks read alike.
      const type = e.method ?? e.level;
      shown.consoleMessages.push(`${type === "warn" ? "warning" : type}: ${e.text}`);
    });
    bidi.on("network.fetchError", (e) => shown.failed.push(`${e.request.url} ${e.errorText}`));
    bidi.on("network.responseCompleted", (e) => {
      if (e.response.status >= 400) shown.failed.push(`${e.response.url} HTTP ${e.response.status}`);
    });
    await bidi.subscribe(["log.entryAdded", "network.fetchError", "network.responseCompleted"]);
    return seleniumPage(driver, shown);
  } catch (e) {
    await driver.quit().catch(() => {});
    throw e;
  }
}

/** The page object of a selenium-webdriver session; `shown` holds what the page reported. */
function seleniumPage(driver, shown) {
  const run = (fn) => driver.executeScript(`return (${fn})();`);
  return {
    ...shown,
    goto: (url) => driver.get(url),
    evaluate: run,
    waitFor: (fn, timeoutMs) => driver.wait(async () => Boolean(await run(fn)), timeoutMs),
    close: () => driver.quit(),
  };
}

async function openWebKit() {
  const driverPath = webkitDriverPath();
  if (!existsSync(driverPath)) throw new Error(`${driverPath} is missing: run scripts/setup.sh (or set WEBKITDRIVER)`);
  if (!process.env.DISPLAY) throw new Error("WebKit's MiniBrowser needs a display: run under xvfb-run -a (make test-consumers does)");
  process.env.SE_MANAGER_PATH = "/nonexistent/selenium-manager-is-not-used";
  const { Capabilities, WebDriver } = await import("selenium-webdriver");
  const { DriverService } = await import("selenium-webdriver/remote/index.js");
  const { Executor, HttpClient } = await import("selenium-webdriver/http/index.js");
  // The script execs WEBKITDRIVER with the proxy variables that keep MiniBrowser on loopback.
  const service = new DriverService.Builder(`${root}scripts/webkit-webdriver.sh`)
    .setLoopback(true)
    .setEnvironment({ ...process.env, WEBKITDRIVER: driverPath })
    .build();
  const executor = new Executor(service.start().then((url) => new HttpClient(url)));
  const capabilities = new Capabilities({ browserName: "MiniBrowser", "webkitgtk:browserOptions": webkitOptions() });
  const driver = WebDriver.createSession(executor, capabilities, () => service.kill());
  try {
    await driver.getSession();
    // No BiDi in WebKitWebDriver 2.50: what the page logs is not reported (null, not checked).
    return seleniumPage(driver, { consoleMessages: null, pageErrors: null, failed: null });
  } catch (e) {
    await driver.quit().catch(() => {});
    throw e;
  }
}
