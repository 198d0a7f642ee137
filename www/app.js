// Entry point of the demo admin console: loads estatekit, runs the connection panel and the tabs.
import init, { Client, EVENT_TYPES, DOCUMENT_TYPES } from "../pkg/estatekit.js";
import { showError } from "./ui.js";
import { setupWebhooks } from "./webhooks.js";
import { setupDocuments } from "./documents.js";
import { setupMessages } from "./messages.js";
import { setupNetwork } from "./network.js";
import { setupLive } from "./live.js";
import { backend, initialMode, rememberMode } from "./service.js";

// The token lives in memory and in this tab's sessionStorage only: never localStorage, never the URL.
const STORE = "estatekit-demo";

/** Shared state the tabs read. */
const ctx = {
  client: null,
  /** "server" (the service at the base URL) or "in-page" (the emulator in this tab). */
  mode: "server",
  /** `/_emulator/info` when the base URL is the estatekit emulator, else null. */
  emulator: null,
  /** The emulator's admin API (info, emit, deliveries, addFaults) of the current connection. */
  admin: null,
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
const modeSelect = document.getElementById("service-mode");

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

/**
 * Shows the connection fields of `mode`: the server's base URL and token as saved, or the
 * in-page service's origin (read-only) and the token it accepts.
 */
function showMode(mode, service) {
  ctx.mode = mode;
  modeSelect.value = mode;
  document.body.dataset.service = mode;
  baseUrlInput.readOnly = mode === "in-page";
  if (mode === "in-page") {
    baseUrlInput.value = service.baseUrl;
    tokenInput.value = service.defaultToken;
  } else {
    const saved = loadSaved();
    baseUrlInput.value = saved.baseUrl;
    tokenInput.value = saved.token;
  }
}

// A connect that started later wins over one still waiting (e.g. the mode switched meanwhile).
let attempt = 0;

async function connect() {
  const mine = ++attempt;
  showError(connectError, null);
  const mode = ctx.mode;
  let service;
  connectButton.disabled = true;
  statusEl.textContent = mode === "in-page" ? "Starting the emulator in this page…" : "Connecting…";
  try {
    service = await backend(mode, baseUrlInput.value.trim());
  } catch (error) {
    if (mine !== attempt) return;
    connectButton.disabled = false;
    statusEl.textContent = "Not connected";
    showError(connectError, error);
    return;
  }
  if (mine !== attempt) return;
  const baseUrl = service.baseUrl;
  const token = tokenInput.value.trim();
  let client;
  try {
    // Every call's events go to the Network tab. In the page, requests go to the service's fetch.
    const options = { baseUrl, token, onEvent: (event) => ctx.onEvent(event) };
    if (service.fetch) options.fetch = service.fetch;
    // `new Client` throws an invalid base URL's error at once.
    client = new Client(options);
  } catch (error) {
    // Invalid options (kind invalid_input): shown next to the form, nothing was sent.
    connectButton.disabled = false;
    showError(connectError, error);
    statusEl.textContent = "Not connected";
    (token === "" ? tokenInput : baseUrlInput).focus();
    return;
  }
  // The previous client is left to the garbage collector: a request of it may still be running.
  ctx.client = client;
  ctx.token = token;
  ctx.admin = service.admin;
  if (mode === "server") save(baseUrl, token);
  let emulator;
  try {
    emulator = await service.admin.info();
  } finally {
    if (mine === attempt) connectButton.disabled = false;
  }
  if (mine !== attempt) return;
  ctx.emulator = emulator;
  document.body.classList.toggle("is-emulator", ctx.emulator !== null);
  for (const el of document.querySelectorAll(".emulator-only")) el.hidden = ctx.emulator === null;
  statusEl.textContent = `Connected to ${client.baseUrl}${ctx.emulator ? ` (${service.label})` : ""}`;
  document.body.dataset.connected = "true";
  for (const fn of ctx.listeners) fn(ctx);
}

/** Switches between the server and the in-page service, then connects. */
async function switchMode(mode) {
  if (mode === "in-page") {
    const mine = ++attempt;
    statusEl.textContent = "Starting the emulator in this page…";
    let service;
    try {
      service = await backend(mode);
    } catch (error) {
      if (mine !== attempt) return;
      showMode(mode, { baseUrl: "", defaultToken: "" });
      statusEl.textContent = "Not connected";
      showError(connectError, error);
      return;
    }
    if (mine !== attempt) return;
    showMode(mode, service);
  } else {
    showMode(mode);
  }
  await connect();
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
  setupWebhooks(ctx);
  setupDocuments(ctx);
  setupMessages(ctx);
  setupNetwork(ctx);
  setupLive(ctx);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    connect();
  });
  modeSelect.addEventListener("change", () => {
    rememberMode(modeSelect.value); // a reload keeps the choice
    switchMode(modeSelect.value);
  });
  const savedTab = tabs.find((t) => t.id === sessionStorage.getItem(`${STORE}-tab`));
  if (savedTab) selectTab(savedTab, false);
  await switchMode(initialMode());
  document.body.dataset.ready = "true";
}

main().catch((error) => {
  statusEl.textContent = "The estatekit package could not be loaded.";
  showError(connectError, error);
});
