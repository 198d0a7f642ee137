// Webhooks tab: list, register (grouped event types), delete with confirmation, and on the
// emulator a test event with its delivery attempts.
import { h, replace, busy, showError, formatDate, confirmAction, eventTypeSelect, maskSecret } from "./ui.js";

export function setupWebhooks(ctx) {
  const $ = (id) => document.getElementById(id);
  const list = $("webhooks-list");
  const listStatus = $("webhooks-status");
  const listError = $("webhooks-error");
  const refreshButton = $("webhooks-refresh");
  const form = $("webhook-form");
  const urlInput = $("webhook-url");
  const ensureInput = $("webhook-ensure");
  const registerButton = $("webhook-register");
  const formStatus = $("webhook-form-status");
  const formError = $("webhook-form-error");
  const eventForm = $("event-form");
  const eventStatus = $("event-status");
  const eventError = $("event-error");
  const deliveries = $("deliveries");

  const typeSelect = eventTypeSelect("webhook-type", ctx.eventTypes);
  $("webhook-type-field").append(typeSelect);
  const eventType = eventTypeSelect("event-type", ctx.eventTypes);
  $("event-type-field").append(eventType);
  let lastEvent = null;
  let suggestedUrl = "";

  async function refresh() {
    showError(listError, null);
    try {
      const webhooks = await busy(
        { region: list, buttons: [refreshButton], status: listStatus, label: "Loading webhooks…" },
        () => ctx.client.listWebhooks(),
      );
      render(webhooks);
    } catch (error) {
      replace(list);
      showError(listError, error);
    }
  }

  function render(webhooks) {
    if (webhooks.length === 0) {
      replace(list, h("p", { class: "empty", text: "No webhooks registered yet. Register one with the form." }));
      return;
    }
    const rows = webhooks.map((w) => {
      // make demo's live receiver carries a secret in its URL: never shown.
      const url = maskSecret(w.url);
      const del = h("button", { type: "button", class: "danger small", text: "Delete" });
      const rowError = h("div", { class: "error", role: "alert", hidden: true });
      del.setAttribute("aria-label", `Delete webhook ${w.type} to ${url}`);
      del.addEventListener("click", async () => {
        const ok = await confirmAction(`Delete the ${w.type} webhook to ${url}?`, "Delete webhook");
        if (!ok) {
          del.focus();
          return;
        }
        showError(rowError, null);
        try {
          await busy({ region: row, buttons: [del], status: listStatus, label: "Deleting…" }, () =>
            ctx.client.deleteWebhook(w.id),
          );
          listStatus.textContent = `Deleted the ${w.type} webhook.`;
          await refresh();
          refreshButton.focus();
        } catch (error) {
          showError(rowError, error);
        }
      });
      const row = h(
        "tr",
        { "data-id": w.id },
        h("td", { "data-label": "Type" }, h("code", { text: w.type })),
        h("td", { "data-label": "URL", class: "break" }, url),
        h("td", { "data-label": "Created" }, h("time", { datetime: w.createdAt, text: formatDate(w.createdAt) })),
        h("td", { "data-label": "Actions" }, h("div", {}, del, rowError)),
      );
      return row;
    });
    replace(
      list,
      h(
        "table",
        { class: "data", id: "webhooks-table" },
        h("caption", { class: "visually-hidden", text: "Registered webhooks" }),
        h("thead", {}, h("tr", {}, ["Type", "URL", "Created", "Actions"].map((t) => h("th", { scope: "col", text: t })))),
        h("tbody", {}, rows),
      ),
    );
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    showError(formError, null);
    const input = { type: typeSelect.value, url: urlInput.value.trim() };
    if (input.url === "") {
      urlInput.setAttribute("aria-invalid", "true");
      formStatus.textContent = "";
      showError(formError, { kind: "invalid_input", message: "Enter the URL that should receive the notifications." });
      urlInput.focus();
      return;
    }
    urlInput.removeAttribute("aria-invalid");
    try {
      const id = await busy({ region: form, buttons: [registerButton], status: formStatus, label: "Registering…" }, () =>
        ensureInput.checked ? ctx.client.ensureWebhook(input) : ctx.client.registerWebhook(input),
      );
      formStatus.textContent = `Registered ${input.type} (id ${id}).`;
      eventType.value = input.type;
      await refresh();
    } catch (error) {
      if (error?.kind === "invalid_input") urlInput.setAttribute("aria-invalid", "true");
      showError(formError, error);
    }
  });
  refreshButton.addEventListener("click", refresh);

  // Emulator only (on the server or in the page): emit a test event, then show its deliveries
  // (ctx.admin, see service.js).
  async function loadDeliveries() {
    const all = await ctx.admin.deliveries();
    const mine = Array.isArray(all) ? all.filter((d) => lastEvent === null || d.eventUuid === lastEvent.uuid) : [];
    renderDeliveries(mine);
    return mine;
  }

  function renderDeliveries(items) {
    if (items.length === 0) {
      replace(deliveries, h("p", { class: "empty", text: lastEvent ? "No delivery attempts yet." : "Send an event to see its deliveries." }));
      return;
    }
    replace(
      deliveries,
      h(
        "table",
        { class: "data", id: "deliveries-table" },
        h("caption", { class: "visually-hidden", text: "Delivery attempts" }),
        h("thead", {}, h("tr", {}, ["Type", "URL", "Attempt", "Result", "At"].map((t) => h("th", { scope: "col", text: t })))),
        h(
          "tbody",
          {},
          items.map((d) => {
            const ok = typeof d.status === "number" && d.status >= 200 && d.status < 300;
            const result = d.status === null || d.status === undefined ? `failed: ${d.error ?? "no answer"}` : `HTTP ${d.status}${d.error ? `: ${d.error}` : ""}`;
            return h(
              "tr",
              {},
              h("td", { "data-label": "Type" }, h("code", { text: d.type })),
              h("td", { "data-label": "URL", class: "break" }, maskSecret(d.url)),
              h("td", { "data-label": "Attempt", text: d.attempt }),
              h("td", { "data-label": "Result" }, h("span", { class: ok ? "pill ok" : "pill bad", text: result })),
              h("td", { "data-label": "At" }, h("time", { datetime: d.at, text: formatDate(d.at) })),
            );
          }),
        ),
      ),
    );
  }

  eventForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    showError(eventError, null);
    const send = $("event-send");
    try {
      await busy({ region: eventForm, buttons: [send], status: eventStatus, label: "Sending event…" }, async () => {
        // No `data`: the emulator's example of the type, which a typed receiver (make demo's live
        // one among them) accepts.
        lastEvent = await ctx.admin.emit(eventType.value, { token: ctx.token });
        // Deliveries happen in the background (with retries): poll briefly until every webhook answered.
        for (let i = 0; i < 20; i += 1) {
          const mine = await loadDeliveries();
          const settled = new Set(mine.filter((d) => d.status !== null && d.status < 300).map((d) => d.webhookId));
          if (settled.size >= lastEvent.webhooks && mine.length >= lastEvent.webhooks) break;
          await new Promise((r) => setTimeout(r, 250));
        }
      });
      eventStatus.textContent =
        lastEvent.webhooks === 0
          ? `Event ${eventType.value} sent, but no webhook of this type is registered.`
          : `Event ${eventType.value} sent to ${lastEvent.webhooks} webhook${lastEvent.webhooks === 1 ? "" : "s"}.`;
    } catch (error) {
      showError(eventError, error);
    }
  });
  $("deliveries-refresh").addEventListener("click", async () => {
    showError(eventError, null);
    try {
      await busy({ region: deliveries, buttons: [$("deliveries-refresh")], status: eventStatus, label: "Loading deliveries…" }, loadDeliveries);
    } catch (error) {
      showError(eventError, error);
    }
  });

  ctx.onConnect(() => {
    // The emulator's own sink, so that deliveries succeed (replaced when the service changes,
    // unless the URL was edited).
    const sink = ctx.emulator ? `${ctx.client.baseUrl}/_emulator/sink/demo` : "";
    if (urlInput.value === "" || urlInput.value === suggestedUrl) urlInput.value = sink;
    suggestedUrl = sink;
    lastEvent = null;
    if (ctx.emulator) renderDeliveries([]);
    refresh();
  });
}
