// The Live tab: the emulator's events pushed to this page as the emulator sends them. `make demo`
// serves the page with a small backend of its own (scripts/demo.mjs): "Follow live events" asks it
// to register its receiver (estatekit/webhooks, the URL carrying a secret the page never sees) for
// every event type with this page's token, then the page subscribes to its stream route
// (estatekit/live) with estatekit/subscribe. "Emit a test event" asks the emulator to send one
// (its admin route /_emulator/emit); it appears here once delivered, received and streamed.
// Without that backend (make demo-static, the service in this page, another base URL) the tab
// says so. Event data is untrusted text: only ever put into the page as text.
import { h, replace, busy, showError, eventTypeSelect } from "./ui.js";

const MAX_EVENTS = 100;
const STREAM = "/demo/live";

/** `12:03:04` for a Date.now() time. */
function clock(ms) {
  const d = new Date(ms);
  const two = (n) => String(n).padStart(2, "0");
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

export function setupLive(ctx) {
  const $ = (id) => document.getElementById(id);
  const unavailable = $("live-unavailable");
  const controls = $("live-controls");
  const followButton = $("live-follow");
  const emitButton = $("live-emit");
  const status = $("live-status");
  const error = $("live-error");
  const list = $("live-events");
  const empty = $("live-empty");
  const count = $("live-count");
  const typeSelect = eventTypeSelect("live-type", ctx.eventTypes);
  $("live-type-field").append(typeSelect);

  /** The open subscription (estatekit/subscribe), if any. */
  let subscription = null;
  let received = 0;
  // A connect that started later wins over one still checking.
  let generation = 0;

  function stop() {
    subscription?.close();
    subscription = null;
  }

  /** Says why there are no live events here (after "Live events need make demo: ..."). */
  function showUnavailable(why) {
    stop();
    replace(unavailable, "Live events need ", h("code", { text: "make demo" }), `: its server receives the emulator's webhooks and streams them to this page. ${why}`);
    unavailable.hidden = false;
    controls.hidden = true;
    document.body.dataset.live = "unavailable";
  }

  function add(type, event, info) {
    received += 1;
    const uuid = event && typeof event.uuid === "string" ? event.uuid : "";
    const item = h(
      "li",
      { class: "live-event", "data-type": type, "data-uuid": uuid, "data-id": info.id },
      h(
        "div",
        { class: "live-head" },
        h("code", { class: "live-type", text: type }),
        h("span", { class: "muted", text: ` at ${clock(Date.now())}, position ${info.id}` }),
      ),
      // The event exactly as the service sent it: text, never markup.
      h("pre", { class: "live-data break", text: info.data }),
    );
    list.prepend(item);
    while (list.children.length > MAX_EVENTS) list.lastElementChild.remove();
    empty.hidden = true;
    count.textContent = `${received} event${received === 1 ? "" : "s"} received`;
  }

  function notice(text) {
    list.prepend(h("li", { class: "live-notice", text }));
    empty.hidden = true;
  }

  async function follow() {
    showError(error, null);
    const mine = generation;
    try {
      const account = await busy({ region: controls, buttons: [followButton], status, label: "Registering the demo's receiver…" }, async () => {
        const response = await fetch("/demo/live/follow", { method: "POST", headers: { Authorization: `Bearer ${ctx.token}` } });
        const body = await response.json().catch(() => null);
        if (!response.ok) throw { kind: body?.kind ?? "http", status: response.status, message: body?.message ?? `HTTP ${response.status}` };
        return body.account;
      });
      if (mine !== generation) return;
      const { subscribe } = await import("../pkg/subscribe.js");
      if (mine !== generation) return;
      stop();
      const on = {};
      for (const type of ctx.eventTypes) on[type] = (event, info) => add(type, event, info);
      subscription = subscribe(STREAM, {
        on,
        onReset: () => notice("The log no longer held this page's position: events may have been missed (a page would reload what it shows)."),
        onError: (e) => {
          // The sign-in-required error (kind unauthorized, 401): the demo's session is gone (its
          // server restarted). Follow again.
          stop();
          followButton.hidden = false;
          document.body.dataset.live = "available";
          status.textContent = "";
          replace(
            error,
            h("p", { class: "error-summary", text: "The live stream asks to sign in again: follow live events again." }),
            h("p", { class: "error-facts", text: `kind: ${e.kind} · HTTP ${e.status} · signInRequired: ${e.signInRequired}` }),
          );
          error.hidden = false;
        },
      });
      document.body.dataset.live = "following";
      followButton.hidden = true;
      status.textContent = `Following the ${ctx.eventTypes.length} event types of account ${account}: emit one, or act in the other tabs.`;
    } catch (e) {
      if (mine === generation) showError(error, e);
    }
  }

  async function emit() {
    showError(error, null);
    try {
      const sent = await busy({ buttons: [emitButton], status, label: "Emitting…" }, () =>
        // No `data`: the emulator's example of the type, valid for the receiver's checks.
        ctx.admin.emit(typeSelect.value, { token: ctx.token }),
      );
      status.textContent = `Emitted ${typeSelect.value} (event ${sent.uuid}); it shows below once delivered.`;
    } catch (e) {
      showError(error, e);
    }
  }

  // Whether make demo's server is behind this page: asked once, at the first connect to the
  // emulator of the page's origin (never in the in-page mode, which sends nothing).
  let served;

  followButton.addEventListener("click", follow);
  emitButton.addEventListener("click", emit);

  ctx.onConnect(async () => {
    const mine = ++generation;
    stop();
    delete document.body.dataset.live;
    showError(error, null);
    status.textContent = "";
    followButton.hidden = false;
    replace(list);
    received = 0;
    count.textContent = "";
    empty.hidden = false;
    if (ctx.mode === "in-page") {
      return showUnavailable("The emulator in this page has no server to deliver to.");
    }
    if (!ctx.emulator || new URL(ctx.client.baseUrl).origin !== location.origin) {
      return showUnavailable("Connect to its own emulator (the base URL of this page's origin).");
    }
    served ??= fetch("/demo/live/info", { headers: { Accept: "application/json" } })
      .then(async (response) => response.ok && (await response.json())?.live === true)
      .catch(() => false);
    const live = await served;
    if (mine !== generation) return;
    if (!live) {
      return showUnavailable("This page is served without it.");
    }
    unavailable.hidden = true;
    controls.hidden = false;
    document.body.dataset.live = "available";
  });

  replace(list);
}
