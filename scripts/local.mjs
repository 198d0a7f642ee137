// What the JavaScript tests and the benchmark start on this machine, in one place: the
// emulator on a free loopback port, and Debian's headless Chromium without network chatter.
import { execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { once } from "node:events";
import { fileURLToPath } from "node:url";

/** The repository root, with a trailing slash. */
export const root = fileURLToPath(new URL("../", import.meta.url));

/**
 * Runs the workspace's bin `name` (core's `error-model`...) with `args` and returns what it
 * printed. Built by `cargo build --workspace --bin NAME --examples`: the workspace's features with
 * its dev-dependencies, as `cargo test --workspace` (test-native) and `make emulator` resolve them,
 * so that the three share their compiled crates (the workspace has no example: --examples only
 * brings the dev-dependencies into the resolution). `cargo run -p PACKAGE` resolves features for
 * that package alone: other builds of the same crates, compiled again.
 */
export function workspaceBin(name, args = []) {
  execFileSync("cargo", ["build", "-q", "--workspace", "--bin", name, "--examples"], { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
  return execFileSync(`${root}target/debug/${name}`, args, { cwd: root, encoding: "utf8" });
}

/** The emulator binary: `ESTATEKIT_EMULATOR_BIN`, else the debug build (`make emulator`). */
export const emulatorBin = () =>
  process.env.ESTATEKIT_EMULATOR_BIN ?? `${root}target/debug/estatekit-emulator`;

/**
 * Starts the emulator with `--port 0 --quiet --seed-documents 0` plus `args`, from the repository root, and waits
 * for its `listening on <url>` line. Returns `{ url, child, stop() }`; `stop()` ends it.
 */
export async function startEmulator(args = [], { bin = emulatorBin(), timeoutMs = 60_000 } = {}) {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run \`make emulator\` first`);
  // No seeded documents unless `args` asks (`--seed-documents N`, the later flag wins): the
  // tests count their own.
  const child = spawn(bin, ["--port", "0", "--quiet", "--seed-documents", "0", ...args], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stderr.on("data", (d) => (err += d));
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`emulator did not start in ${timeoutMs} ms\n${err}`)),
      timeoutMs,
    );
    child.on("error", reject);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`emulator exited (${code}) before listening\n${err}`));
    });
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const match = out.match(/listening on (\S+)/);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
  child.stdout.resume();
  return {
    url,
    child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}

/** Chromium flags: headless as root, and no background connections (the network is closed). */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
  "--no-first-run",
];

/** Launches Debian's Chromium through playwright-core (never a downloaded browser). */
export async function launchChromium(extraArgs = []) {
  const { chromium } = await import("playwright-core");
  return chromium.launch({ executablePath: "/usr/bin/chromium", args: [...CHROMIUM_ARGS, ...extraArgs] });
}
