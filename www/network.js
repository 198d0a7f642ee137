// The Network tab: what the client did, from its request events (ClientOptions.onEvent): the last
// 100 events, newest first, with operation, status, duration, attempt, retry waits and, when the
// service exposes them, the rate-limit figures. Text from events is always inserted as text.

const MAX_EVENTS = 100;

/** `12:03:04.567` for a Date.now() time. */
function clock(ms) {
  const d = new Date(ms);
  const two = (n) => String(n).padStart(2, "0");
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, "0")}`;
}

const ms = (value) => (value === undefined ? "" : `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`);

/** The cells of one event's row: [time, call, operation, event, request, attempt, result, duration, note]. */
function cells(entry) {
  const { at, event: e } = entry;
  const request = e.method ? `${e.method} ${e.path}` : "";
  switch (e.type) {
    case "request":
      return [clock(at), `#${e.callId}`, e.operation, "request", request, String(e.attempt), "", "", ""];
    case "response": {
      const limit = e.rateLimit
        ? `rate limit ${e.rateLimit.remaining}/${e.rateLimit.perWindow}, resets in ${Math.ceil(e.rateLimit.resetMs / 1000)} s`
        : "";
      const id = e.requestId ? `request id ${e.requestId}` : "";
      return [clock(at), `#${e.callId}`, e.operation, "response", request, String(e.attempt), String(e.status), ms(e.durationMs), [limit, id].filter(Boolean).join("; ")];
    }
    case "retry":
      return [clock(at), `#${e.callId}`, e.operation, "retry", "", String(e.attempt), e.status ? `${e.kind} ${e.status}` : e.kind, "", `waits ${ms(e.delayMs)} before attempt ${e.attempt + 1}`];
    case "token":
      return [clock(at), `#${e.callId}`, e.operation, "token", "", "", "", "", `asks getToken (${e.reason})`];
    case "rateWait":
      return [clock(at), `#${e.callId}`, e.operation, "rate wait", "", "", "", "", `waits ${ms(e.delayMs)} for room in the rate budget`];
    case "error":
      return [clock(at), `#${e.callId}`, e.operation, "error", "", String(e.attempts), e.status ? `${e.kind} ${e.status}` : e.kind, ms(e.durationMs), `failed after ${e.attempts} attempt${e.attempts === 1 ? "" : "s"}`];
    case "done":
      return [clock(at), `#${e.callId}`, e.operation, "done", "", String(e.attempts), "ok", ms(e.durationMs), `${e.attempts} attempt${e.attempts === 1 ? "" : "s"}`];
    default:
      return [clock(at), `#${e.callId}`, e.operation, String(e.type), "", "", "", "", ""];
  }
}

export function setupNetwork(ctx) {
  const rows = document.getElementById("network-rows");
  const empty = document.getElementById("network-empty");
  const count = document.getElementById("network-count");
  const clear = document.getElementById("network-clear");
  const simulate = document.getElementById("network-simulate");
  const status = document.getElementById("network-status");
  /** Newest first. */
  const entries = [];
  let scheduled = false;

  function render() {
    scheduled = false;
    const fragment = document.createDocumentFragment();
    for (const entry of entries) {
      const tr = document.createElement("tr");
      tr.className = `net-${entry.event.type}`;
      for (const text of cells(entry)) {
        const td = document.createElement("td");
        td.textContent = text;
        tr.append(td);
      }
      fragment.append(tr);
    }
    rows.replaceChildren(fragment);
    empty.hidden = entries.length > 0;
    count.textContent = entries.length === 0 ? "" : `${entries.length} event${entries.length === 1 ? "" : "s"} (the last ${MAX_EVENTS} are kept)`;
  }

  /** The client's onEvent: records the event, renders at the next frame. */
  ctx.onEvent = (event) => {
    entries.unshift({ at: Date.now(), event });
    if (entries.length > MAX_EVENTS) entries.length = MAX_EVENTS;
    if (!scheduled) {
      scheduled = true;
      requestAnimationFrame(render);
    }
  };

  clear.addEventListener("click", () => {
    entries.length = 0;
    render();
  });

  // With the emulator (on the server or in the page): its fault injection answers the next webhook list with a 503, which the
  // client retries; the Network tab shows the failed attempt, the wait and the retry.
  simulate.addEventListener("click", async () => {
    status.textContent = "";
    try {
      const fault = { method: "GET", path: "/api/external-integrations/webhooks", token: ctx.token, status: 503, times: 1 };
      await ctx.admin.addFaults(fault);
      await ctx.client.listWebhooks();
      status.textContent = "The first attempt got a 503; the client waited and retried.";
    } catch (error) {
      status.textContent = `Could not simulate: ${error.message}`;
    }
  });

  render();
}
