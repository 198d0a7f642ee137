// Messages tab: filter by candidate / contact / listing (at least one, checked before any
// request) and the conversation as a thread.
import { h, replace, busy, showError, formatBytes } from "./ui.js";

const TAKE = 200;

export function setupMessages(ctx) {
  const $ = (id) => document.getElementById(id);
  const form = $("messages-form");
  const inputs = { candidateId: $("m-candidate"), contactId: $("m-contact"), listingId: $("m-listing") };
  const validation = $("messages-validation");
  const showButton = $("messages-show");
  const thread = $("thread");
  const status = $("messages-status");
  const error = $("messages-error");
  const summary = $("thread-summary");

  function setInvalid(message) {
    for (const input of Object.values(inputs)) {
      if (message) {
        input.setAttribute("aria-invalid", "true");
        input.setAttribute("aria-errormessage", "messages-validation");
      } else {
        input.removeAttribute("aria-invalid");
        input.removeAttribute("aria-errormessage");
      }
    }
    validation.textContent = message ?? "";
    validation.hidden = !message;
  }
  for (const input of Object.values(inputs)) {
    input.addEventListener("input", () => {
      if (!validation.hidden && input.value.trim() !== "") setInvalid(null);
    });
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    showError(error, null);
    const filter = {};
    for (const [key, input] of Object.entries(inputs)) {
      if (input.value.trim() !== "") filter[key] = input.value.trim();
    }
    if (Object.keys(filter).length === 0) {
      // The interface requires one of the three; say so before sending anything.
      setInvalid("Enter a candidate id, a contact id or a listing id (at least one) to show a conversation.");
      inputs.candidateId.focus();
      return;
    }
    setInvalid(null);
    const direction = $("m-order").value;
    try {
      const messages = await busy(
        { region: thread, buttons: [showButton], status, label: "Loading messages…" },
        () => ctx.client.listMessages(filter, { sort: { fieldName: "id", direction }, paging: { skip: 0, take: TAKE } }),
      );
      render(messages.filter(Boolean), filter);
      // On narrow screens the thread is below the form: bring it into view.
      if (matchMedia("(max-width: 900px)").matches) thread.closest(".card").scrollIntoView({ block: "start" });
    } catch (e) {
      replace(thread);
      summary.textContent = "";
      showError(error, e);
    }
  });

  function render(messages, filter) {
    const described = Object.entries(filter).map(([k, v]) => `${k.replace(/Id$/, "")} ${v}`).join(", ");
    $("thread-title").textContent = `Messages with ${described}`;
    const unread = messages.filter((m) => m.isRead === false).length;
    summary.textContent = `${messages.length} message${messages.length === 1 ? "" : "s"}, ${unread} unread${messages.length === TAKE ? ` (first ${TAKE})` : ""}`;
    if (messages.length === 0) {
      replace(thread, h("li", { class: "empty", text: "No messages in this conversation." }));
      return;
    }
    const byId = new Map(messages.filter((m) => m.id != null).map((m) => [m.id, m]));
    const items = new Map();
    replace(
      thread,
      messages.map((m, index) => {
        const from = m.sentBy === "ADMIN" ? "admin" : m.sentBy === "CANDIDATE" ? "candidate" : "other";
        const sender = m.sentBy === "ADMIN" ? "Admin" : m.sentBy === "CANDIDATE" ? "Candidate" : String(m.sentBy ?? "Unknown sender");
        const li = h(
          "li",
          {
            class: `msg from-${from}${m.isRead === false ? " unread" : ""}`,
            "data-id": m.id ?? `#${index}`,
            "data-sent-by": m.sentBy ?? "",
            tabindex: "-1",
          },
          h(
            "div",
            { class: "msg-head" },
            h("span", { class: "sender", text: sender }),
            m.userId ? h("span", { class: "muted", text: ` ${m.userId}` }) : null,
            m.isRead === false ? h("span", { class: "badge unread-badge", text: "Unread" }) : null,
            h("span", { class: "msg-id muted", text: m.id ?? "" }),
          ),
          m.replyToMessageId ? replyLink(m.replyToMessageId, byId, items) : null,
          h("p", { class: "text", text: m.text ?? "" }),
          attachments(m.attachments),
        );
        if (m.id != null) items.set(m.id, li);
        return li;
      }),
    );
  }

  function replyLink(targetId, byId, items) {
    const target = byId.get(targetId);
    const excerpt = target?.text ? `: “${target.text.length > 60 ? `${target.text.slice(0, 60)}…` : target.text}”` : "";
    if (!target) return h("p", { class: "reply-to muted", text: `↩ Reply to ${targetId} (not in this view)` });
    const link = h("a", { class: "reply-to", href: "#thread", text: `↩ Reply to ${targetId}${excerpt}` });
    link.addEventListener("click", (event) => {
      event.preventDefault();
      const li = items.get(targetId);
      if (!li) return;
      li.scrollIntoView({ block: "center", behavior: "smooth" });
      li.focus({ preventScroll: true });
      li.classList.remove("flash");
      void li.offsetWidth; // restart the highlight animation
      li.classList.add("flash");
    });
    return link;
  }

  function attachments(list) {
    const files = (list ?? []).filter(Boolean);
    if (files.length === 0) return null;
    return h(
      "ul",
      { class: "attachments", "aria-label": "Attachments" },
      files.map((a) =>
        h(
          "li",
          { class: "attachment" },
          h("span", { class: "att-name break", text: a.name ?? "unnamed file" }),
          h("span", { class: "muted", text: ` ${a.type ?? "unknown type"} · ${formatBytes(a.size)}` }),
        ),
      ),
    );
  }

  ctx.onConnect(() => {
    replace(thread, h("li", { class: "empty", text: "Choose a candidate, contact or listing to show the conversation." }));
    summary.textContent = "";
    $("thread-title").textContent = "Messages";
    const lists = { "candidate-ids": [], "contact-ids": [], "listing-ids": [] };
    if (ctx.emulator) {
      // Seed data of the emulator (docs/emulator-contract.md).
      lists["candidate-ids"] = ["cand-1", "cand-2", "cand-3", "cand-4", "cand-5"];
      lists["contact-ids"] = ["contact-1", "contact-2", "contact-3"];
      lists["listing-ids"] = ["listing-1", "listing-2"];
    }
    for (const [id, values] of Object.entries(lists)) replace($(id), values.map((v) => h("option", { value: v })));
  });
}
