// Small DOM helpers shared by the demo's tabs. Text from the service is only ever put into the
// page as text nodes (textContent / createTextNode), never parsed as HTML.

/**
 * Creates an element. `attrs`: `class`, `text` (textContent), `on<event>` handlers, booleans
 * (set when true), everything else through setAttribute. Children: nodes or strings (as text).
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = String(value);
    else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/**
 * A webhook URL as the page shows it: the value of a `secret` query parameter (the live
 * receiver's of `make demo`) masked, so that no secret is ever put on the screen.
 */
export function maskSecret(url) {
  return String(url).replace(/([?&]secret=)[^&#]*/gi, "$1•••");
}

/** Replaces every child of `el`. */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

/** `1536` -> `1.5 KB` (1024-based, as file managers show it). */
export function formatBytes(n) {
  if (typeof n !== "number" || !Number.isFinite(n) || n < 0) return "unknown size";
  if (n < 1024) return `${n} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 10 ? value.toFixed(0) : value.toFixed(1)} ${units[unit]}`;
}

/** An ISO timestamp in the reader's locale; anything else as given. */
export function formatDate(iso) {
  if (typeof iso !== "string" || iso === "") return "—";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

// What each error kind means for the person using the page.
const KIND_WORDS = {
  invalid_input: "Please check what you entered.",
  unauthorized: "The service did not accept the access token. Check the token in the connection panel.",
  forbidden: "This token is not allowed to do that.",
  not_found: "It was not found; it may have been deleted already.",
  rate_limited: "Too many requests for now.",
  http: "The service reported an error.",
  graphql: "The service rejected the messages query.",
  network: "The service could not be reached. Check the base URL and your connection.",
  timeout: "The service took too long to answer.",
  aborted: "The request was cancelled.",
  decode: "The service answered with something the page did not understand.",
};

/** `{summary, detail, kind, status, code}` for any thrown value. */
export function describeError(error) {
  const kind = typeof error?.kind === "string" ? error.kind : "unexpected";
  const summary = KIND_WORDS[kind] ?? "Something went wrong.";
  let detail = "";
  const details = error?.details;
  if (kind === "invalid_input") {
    detail = String(error?.message ?? "");
  } else if (Array.isArray(details)) {
    detail = details.map((d) => (d && typeof d.message === "string" ? d.message : "")).filter(Boolean).join("; ");
  } else if (details && typeof details === "object" && typeof details.message === "string") {
    detail = details.message;
  } else if (error instanceof Error) {
    detail = error.message;
  } else if (error !== undefined) {
    detail = String(error);
  }
  let extra = "";
  if (kind === "rate_limited" && typeof error?.retryAfterMs === "number") {
    extra = ` Try again in ${Math.ceil(error.retryAfterMs / 1000)} s.`;
  }
  return {
    summary: summary + extra,
    detail,
    kind,
    status: typeof error?.status === "number" ? error.status : undefined,
    code: typeof error?.code === "string" ? error.code : undefined,
  };
}

/** Shows `error` in `box` (an element with class `error`), or clears the box when null. */
export function showError(box, error) {
  if (error === null || error === undefined) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  const d = describeError(error);
  const facts = [`kind: ${d.kind}`];
  facts.push(d.status !== undefined ? `HTTP ${d.status}` : "no HTTP status");
  if (d.code) facts.push(`code: ${d.code}`);
  replace(
    box,
    h("p", { class: "error-summary", text: d.summary }),
    d.detail ? h("p", { class: "error-detail", text: d.detail }) : null,
    h("p", { class: "error-facts", text: facts.join(" · ") }),
  );
  box.dataset.kind = d.kind;
  if (d.status !== undefined) box.dataset.status = String(d.status);
  else delete box.dataset.status;
  box.hidden = false;
  if (d.kind === "unauthorized") document.dispatchEvent(new CustomEvent("estatekit-unauthorized"));
}

/**
 * Runs `task` with a loading state: `region` gets aria-busy, the buttons are disabled and
 * `status` (if any) says `label`. Returns the task's result; errors propagate.
 */
export async function busy({ region, buttons = [], status, label = "Loading…" }, task) {
  region?.setAttribute("aria-busy", "true");
  region?.classList.add("is-busy");
  const previous = buttons.map((b) => b.disabled);
  for (const b of buttons) b.disabled = true;
  if (status) {
    status.textContent = label;
    status.hidden = false;
  }
  try {
    return await task();
  } finally {
    region?.removeAttribute("aria-busy");
    region?.classList.remove("is-busy");
    buttons.forEach((b, i) => {
      b.disabled = previous[i];
    });
    if (status && status.textContent === label) status.textContent = "";
  }
}

let dialog;
/**
 * Asks for confirmation in a modal `<dialog>` (keyboard friendly; Escape cancels).
 * Resolves true when confirmed.
 */
export function confirmAction(message, confirmLabel = "Delete") {
  if (!dialog) {
    dialog = h(
      "dialog",
      { class: "confirm", "aria-labelledby": "confirm-text" },
      h(
        "form",
        { method: "dialog" },
        h("p", { id: "confirm-text" }),
        h(
          "div",
          { class: "actions" },
          h("button", { value: "cancel", class: "secondary", text: "Cancel", autofocus: true }),
          h("button", { value: "confirm", class: "danger", id: "confirm-ok" }),
        ),
      ),
    );
    document.body.append(dialog);
  }
  dialog.querySelector("#confirm-text").textContent = message;
  dialog.querySelector("#confirm-ok").textContent = confirmLabel;
  dialog.returnValue = "";
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "confirm"), { once: true });
    dialog.showModal();
  });
}

/** A `<select>` of event types grouped as in section 6 of the interface. */
export function eventTypeSelect(id, eventTypes) {
  const groups = [
    ["Listing", (t) => /^LISTING_(CREATED|UPDATED|ARCHIVED|ACTIVATED|DEACTIVATED|PUBLISHED_TO_CHANNEL|UNPUBLISHED_FROM_CHANNEL)$/.test(t)],
    ["Candidates", (t) => t === "CANDIDATE_PARSED" || t === "LISTING_CANDIDATE_APPLIED"],
    ["Scheduling", (t) => t.startsWith("LISTING_CANDIDATE_SCHEDULE_")],
    ["Contracting", (t) => t.startsWith("LISTING_CONTRACT_FLOW_")],
    ["Owner", (t) => t.startsWith("OWNER_")],
    ["Property", (t) => t.startsWith("PROPERTY_")],
    ["Unit", (t) => t.startsWith("UNIT_")],
  ];
  const select = h("select", { id, required: true });
  const placed = new Set();
  for (const [label, test] of groups) {
    const types = eventTypes.filter((t) => !placed.has(t) && test(t));
    if (types.length === 0) continue;
    types.forEach((t) => placed.add(t));
    select.append(h("optgroup", { label }, types.map((t) => h("option", { value: t, text: t }))));
  }
  const rest = eventTypes.filter((t) => !placed.has(t));
  if (rest.length) select.append(h("optgroup", { label: "Other" }, rest.map((t) => h("option", { value: t, text: t }))));
  return select;
}
