// Entry point of the demo admin console: loads estatekit, runs the connection panel and the tabs.
import init, { Client, EVENT_TYPES, DOCUMENT_TYPES } from "../pkg/estatekit.js";
import { showError } from "./ui.js";
import { setupWebhooks } from "./webhooks.js";
import { setupDocuments } from "./documents.js";
import { setupMessages } from "./messages.js";
import { setupNetwork } from "./network.js";

// The token lives in memory and in this tab's sessionStorage only: never localStorage, never the URL.
const STORE = "estatekit-demo";

/** Shared state the tabs read. */
const ctx = {
  client: null,
  /** `/_emulator/info` when the base URL is the estatekit emulator, else null. */
  emulator: null,
  token: "",
  /** The clients' onEvent (set by the Network tab). */
  onEvent: () => {},
  eventTypes: EVENT_TYPES,
  documentTypes: DOCUMENT_TYPES,
  listeners: [],
  /** Calls `fn(ctx)` after every successful connect. */
  onConnect(fn) {
    this.listeners.push(fn);
  },
};

const form = document.getElementById("connect-form");
const baseUrlInput = document.getElementById("base-url");
const tokenInput = document.getElementById("token");
const connectButton = document.getElementById("connect-button");
const statusEl = document.getElementById("connection-status");
const connectError = document.getElementById("connect-error");

function loadSaved() {
  try {
    const saved = JSON.parse(sessionStorage.getItem(STORE) ?? "{}");
    return { baseUrl: saved.baseUrl || location.origin, token: saved.token || "dev-token" };
  } catch {
    return { baseUrl: location.origin, token: "dev-token" };
  }
}

function save(baseUrl, token) {
  try {
    sessionStorage.setItem(STORE, JSON.stringify({ baseUrl, token }));
  } catch {
    // Storage may be disabled; the values stay in memory.
  }
}

/** Asks `baseUrl` whether it is the estatekit emulator (its admin API answers /_emulator/info). */
async function detectEmulator(baseUrl) {
  try {
    const response = await fetch(`${baseUrl}/_emulator/info`, { signal: AbortSignal.timeout(3000) });
    if (!response.ok) return null;
    const info = await response.json();
    return info && Array.isArray(info.tokens) ? info : null;
  } catch {
    return null;
  }
}

async function connect() {
  showError(connectError, null);
  const baseUrl = baseUrlInput.value.trim();
  const token = tokenInput.value.trim();
  let client;
  try {
    // Every call's events go to the Network tab.
    client = new Client({ baseUrl, token, onEvent: (event) => ctx.onEvent(event) });
  } catch (error) {
    // Invalid options (kind invalid_input): shown next to the form, nothing was sent.
    showError(connectError, error);
    statusEl.textContent = "Not connected";
    (token === "" ? tokenInput : baseUrlInput).focus();
    return;
  }
  // The previous client is left to the garbage collector: a request of it may still be running.
  ctx.client = client;
  ctx.token = token;
  save(baseUrl, token);
  connectButton.disabled = true;
  statusEl.textContent = "Connecting…";
  try {
    ctx.emulator = await detectEmulator(client.baseUrl);
  } finally {
    connectButton.disabled = false;
  }
  document.body.classList.toggle("is-emulator", ctx.emulator !== null);
  for (const el of document.querySelectorAll(".emulator-only")) el.hidden = ctx.emulator === null;
  statusEl.textContent = `Connected to ${client.baseUrl}${ctx.emulator ? " (emulator)" : ""}`;
  document.body.dataset.connected = "true";
  for (const fn of ctx.listeners) fn(ctx);
}

// Tabs (WAI-ARIA tabs pattern: arrow keys, Home and End move between tabs).
const tabs = [...document.querySelectorAll('[role="tab"]')];
function selectTab(tab, focus = true) {
  for (const t of tabs) {
    const selected = t === tab;
    t.setAttribute("aria-selected", String(selected));
    t.tabIndex = selected ? 0 : -1;
    document.getElementById(t.getAttribute("aria-controls")).hidden = !selected;
  }
  if (focus) tab.focus();
  try {
    sessionStorage.setItem(`${STORE}-tab`, tab.id);
  } catch {
    // ignore
  }
}
for (const tab of tabs) {
  tab.addEventListener("click", () => selectTab(tab));
  tab.addEventListener("keydown", (event) => {
    const i = tabs.indexOf(tab);
    const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    selectTab(tabs[(next + tabs.length) % tabs.length]);
  });
}

// Any call rejected with 401 (see ui.js showError) also shows in the connection panel.
document.addEventListener("estatekit-unauthorized", () => {
  if (ctx.client) statusEl.textContent = `${ctx.client.baseUrl} rejected the token (HTTP 401): check it and connect again`;
});

async function main() {
  await init(); // idempotent; harmless if the package also initialises itself lazily
  const saved = loadSaved();
  baseUrlInput.value = saved.baseUrl;
  tokenInput.value = saved.token;
  setupWebhooks(ctx);
  setupDocuments(ctx);
  setupMessages(ctx);
  setupNetwork(ctx);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    connect();
  });
  const savedTab = tabs.find((t) => t.id === sessionStorage.getItem(`${STORE}-tab`));
  if (savedTab) selectTab(savedTab, false);
  await connect();
  document.body.dataset.ready = "true";
}

main().catch((error) => {
  statusEl.textContent = "The estatekit package could not be loaded.";
  showError(connectError, error);
});
