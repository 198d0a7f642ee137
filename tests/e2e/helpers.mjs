// What the demo's end-to-end tests share: opening the page, a few page actions, and a plain
// static file server (the stand-in for any static host of `make demo-static`).
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import path from "node:path";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const SHOTS = path.join(ROOT, "target/e2e-screenshots");
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/**
 * A fresh page (in its own context, pushed to `contexts`) on `url`, ready. `page.dialogs`
 * records every JS dialog (alert/confirm/prompt), `page.errors` every uncaught page error and
 * `page.requests` the URL of every request the page made.
 */
export async function openPage(browser, contexts, url, viewport = DESKTOP) {
  const context = await browser.newContext({ viewport });
  contexts.push(context);
  const page = await context.newPage();
  page.dialogs = [];
  page.errors = [];
  page.requests = [];
  page.on("dialog", (dialog) => {
    page.dialogs.push(dialog.message());
    dialog.dismiss().catch(() => {});
  });
  page.on("pageerror", (error) => page.errors.push(error.message));
  page.on("request", (request) => page.requests.push(request.url()));
  await page.goto(url);
  await page.waitForSelector("body[data-ready]");
  return page;
}

export function noErrors(page) {
  assert.deepEqual(page.errors, [], "uncaught page errors");
  assert.deepEqual(page.dialogs, [], "JS dialogs fired");
}

/** A small JPEG made by the page's canvas. */
export async function makeJpeg(page) {
  const bytes = await page.evaluate(async () => {
    const canvas = document.createElement("canvas");
    canvas.width = 48;
    canvas.height = 32;
    const g = canvas.getContext("2d");
    g.fillStyle = "#1f5fbf";
    g.fillRect(0, 0, 48, 32);
    g.fillStyle = "#ffbf47";
    g.fillRect(8, 8, 20, 12);
    const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.9));
    return [...new Uint8Array(await blob.arrayBuffer())];
  });
  return Buffer.from(bytes);
}

export async function registerWebhook(page, type) {
  await page.selectOption("#webhook-type", type);
  await page.click("#webhook-register");
  await page.locator("#webhooks-table tbody tr", { hasText: type }).waitFor();
}

export async function showMessages(page, candidateId) {
  await page.click("#tab-messages");
  await page.fill("#m-candidate", candidateId);
  await page.click("#messages-show");
  await page.locator("#thread .msg").first().waitFor();
}

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm",
};

/**
 * Serves the files of `dir` on a free loopback port, as a static host does: GET and HEAD only,
 * `index.html` for a folder, 404 for anything else. Returns `{ url, requests, close() }`;
 * `requests` lists every `METHOD path` it was asked for.
 */
export async function serveStatic(dir) {
  const requests = [];
  const server = createServer(async (req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const notFound = () => {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found\n");
    };
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { "content-type": "text/plain", allow: "GET, HEAD" });
      res.end("method not allowed\n");
      return;
    }
    const pathname = decodeURIComponent(new URL(req.url, "http://localhost").pathname);
    let file = path.join(dir, pathname);
    if (!file.startsWith(dir)) return notFound();
    try {
      if ((await stat(file)).isDirectory()) {
        if (!pathname.endsWith("/")) {
          res.writeHead(301, { location: `${pathname}/` });
          res.end();
          return;
        }
        file = path.join(file, "index.html");
      }
      const body = await readFile(file);
      res.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream", "content-length": body.length });
      res.end(req.method === "HEAD" ? undefined : body);
    } catch {
      notFound();
    }
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    requests,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}

/**
 * Calls a route of the server at `base` from the test: the token on `/api/` routes, `init.json`
 * sent as a JSON body (POST unless `init.method` says otherwise), else `init.body` as it is.
 * Resolves with the status and the parsed body (null when empty).
 * @param {string} base
 * @param {string} token
 * @param {string} route
 * @param {{ method?: string, headers?: Record<string, string>, json?: unknown, body?: BodyInit }} [init]
 */
export async function callServer(base, token, route, init = {}) {
  const headers = { ...(init.headers ?? {}) };
  if (route.startsWith("/api/")) headers.Authorization = `Bearer ${token}`;
  if (init.json !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(base + route, {
    method: init.method ?? (init.json !== undefined ? "POST" : "GET"),
    headers,
    body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}
