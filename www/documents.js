// Documents tab: upload (picker or drag and drop, several files, progress per file), filtered
// list with type chips and skip/take paging, details with the full record, delete.
import { h, replace, busy, showError, formatBytes, formatDate, confirmAction } from "./ui.js";

// Section 2.4 of the interface: resource path shape and metadata key per kind of document.
const KINDS = {
  tenant: { label: "Tenant id", placeholder: "tenant-1", folder: "tenants", key: "tenantId" },
  unit: { label: "Unit id", placeholder: "unit-1", folder: "units", key: "unitId" },
  property: { label: "Property id", placeholder: "prop-1", folder: "properties", key: "propertyId" },
  // A property group document lives under its property and is linked to both.
  propertyGroup: { label: "Property group id", placeholder: "group-1", folder: "properties", key: "propertyGroupId" },
};
const FILTER_KEY = { tenantId: "f-tenant", unitId: "f-unit", propertyId: "f-property", propertyGroupId: "f-group" };

export function setupDocuments(ctx) {
  const $ = (id) => document.getElementById(id);

  // ---- Upload ----
  const uploadForm = $("upload-form");
  const fileInput = $("upload-files");
  const dropZone = $("drop-zone");
  const queueEl = $("upload-queue");
  const kindSelect = $("link-kind");
  const idInput = $("link-id");
  const propertyField = $("link-property-field");
  const propertyInput = $("link-property-id");
  const pathInput = $("resource-path");
  const typeSelect = $("upload-type");
  const uploadButton = $("upload-button");
  const uploadStatus = $("upload-status");
  const uploadError = $("upload-error");
  for (const t of ctx.documentTypes) typeSelect.append(h("option", { value: t, text: t }));

  let queue = [];
  let pathEdited = false;
  // Whether uploadDocument accepts the `onProgress` option (newer packages do); learnt on first use.
  let progressOption = true;

  function linkFields() {
    const kind = KINDS[kindSelect.value];
    $("link-id-label").textContent = kind.label;
    idInput.placeholder = kind.placeholder;
    propertyField.hidden = kindSelect.value !== "propertyGroup";
    if (!pathEdited) pathInput.value = suggestedPath();
  }
  function suggestedPath() {
    const kind = KINDS[kindSelect.value];
    const id = kindSelect.value === "propertyGroup" ? propertyInput.value.trim() : idInput.value.trim();
    return id === "" ? "" : `${kind.folder}/${id}`;
  }
  function metadata() {
    const kind = KINDS[kindSelect.value];
    const meta = { type: typeSelect.value, [kind.key]: idInput.value.trim() };
    if (kindSelect.value === "propertyGroup") meta.propertyId = propertyInput.value.trim();
    return meta;
  }
  kindSelect.addEventListener("change", linkFields);
  idInput.addEventListener("input", linkFields);
  propertyInput.addEventListener("input", linkFields);
  pathInput.addEventListener("input", () => {
    pathEdited = pathInput.value.trim() !== "";
  });
  linkFields();

  function addFiles(files) {
    for (const file of files) {
      const n = queue.length + 1 + Math.random().toString(36).slice(2, 7);
      const isImage = /^image\//.test(file.type);
      const nameInput = h("input", { id: `name-${n}`, type: "text", placeholder: file.name, spellcheck: "false" });
      const formatSelect = h(
        "select",
        { id: `format-${n}`, disabled: !isImage },
        h("option", { value: "", text: isImage ? "Keep format" : "Not an image" }),
        h("option", { value: "PNG", text: "Convert to PNG" }),
        h("option", { value: "JPEG", text: "Convert to JPEG" }),
      );
      const progress = h("progress", { max: 100, value: 0, "aria-label": `Upload progress of ${file.name}` });
      const status = h("span", { class: "file-status", text: "Ready" });
      const error = h("div", { class: "error", role: "alert", hidden: true });
      const remove = h("button", { type: "button", class: "secondary small", text: "Remove", "aria-label": `Remove ${file.name}` });
      const item = { file, nameInput, formatSelect, progress, status, error, state: "ready" };
      const row = h(
        "li",
        { class: "upload-item" },
        h("div", { class: "file-head" }, h("strong", { class: "file-name break", text: file.name }), h("span", { class: "muted", text: ` ${file.type || "unknown type"}, ${formatBytes(file.size)}` }), remove),
        h(
          "div",
          { class: "file-fields" },
          h("div", { class: "field" }, h("label", { for: nameInput.id, text: "Save as name (optional)" }), nameInput),
          h("div", { class: "field" }, h("label", { for: formatSelect.id, text: "Image format" }), formatSelect),
        ),
        h("div", { class: "file-progress" }, progress, status),
        error,
      );
      item.row = row;
      remove.addEventListener("click", () => {
        queue = queue.filter((q) => q !== item);
        row.remove();
        updateButton();
        fileInput.focus();
      });
      queue.push(item);
      queueEl.append(row);
    }
    updateButton();
  }
  function updateButton() {
    const pending = queue.filter((q) => q.state !== "done").length;
    uploadButton.textContent = pending > 1 ? `Upload ${pending} files` : "Upload";
  }

  fileInput.addEventListener("change", () => {
    addFiles(fileInput.files);
    fileInput.value = "";
  });
  for (const type of ["dragenter", "dragover"]) {
    dropZone.addEventListener(type, (event) => {
      event.preventDefault();
      dropZone.classList.add("dragging");
    });
  }
  dropZone.addEventListener("dragleave", () => dropZone.classList.remove("dragging"));
  dropZone.addEventListener("drop", (event) => {
    event.preventDefault();
    dropZone.classList.remove("dragging");
    if (event.dataTransfer?.files?.length) addFiles(event.dataTransfer.files);
  });

  async function upload(input, onProgress) {
    if (progressOption) {
      try {
        return await ctx.client.uploadDocument(input, { onProgress });
      } catch (error) {
        // Packages without progress support reject the unknown option before sending anything.
        if (error?.kind !== "invalid_input" || !String(error.message).includes("onProgress")) throw error;
        progressOption = false;
      }
    }
    return ctx.client.uploadDocument(input);
  }

  uploadForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    showError(uploadError, null);
    const pending = queue.filter((q) => q.state !== "done");
    const problems = [];
    if (pending.length === 0) problems.push("Choose at least one file.");
    if (idInput.value.trim() === "") problems.push(`Enter the ${KINDS[kindSelect.value].label.toLowerCase()}.`);
    if (kindSelect.value === "propertyGroup" && propertyInput.value.trim() === "") problems.push("Enter the property id of the group document.");
    if (pathInput.value.trim() === "") problems.push("Enter a resource path.");
    if (problems.length) {
      showError(uploadError, { kind: "invalid_input", message: problems.join(" ") });
      return;
    }
    const meta = metadata();
    const linkKey = KINDS[kindSelect.value].key;
    const resourcePath = pathInput.value.trim();
    let uploaded = 0;
    await busy({ region: uploadForm, buttons: [uploadButton], status: uploadStatus, label: "Uploading…" }, async () => {
      for (const item of pending) {
        showError(item.error, null);
        item.state = "uploading";
        item.status.textContent = "Uploading…";
        item.progress.value = 0;
        const input = { file: item.file, resourcePath, metadata: meta };
        if (item.nameInput.value.trim()) input.name = item.nameInput.value.trim();
        if (item.formatSelect.value) input.format = item.formatSelect.value;
        try {
          const record = await upload(input, ({ loaded, total }) => {
            if (total > 0) item.progress.value = Math.round((loaded / total) * 100);
          });
          item.progress.value = 100; // also when no progress event came (older packages)
          item.state = "done";
          item.row.classList.add("done");
          const details = h("button", { type: "button", class: "link", text: "details" });
          details.addEventListener("click", () => showDetails(record.id));
          replace(item.status, `Uploaded as ${record.title ?? record.id} (${record.type ?? "DOCUMENT"}) — `, details);
          uploaded += 1;
        } catch (error) {
          item.state = "failed";
          item.status.textContent = "Failed";
          showError(item.error, error);
        }
      }
    });
    updateButton();
    const failed = pending.length - uploaded;
    uploadStatus.textContent = `${uploaded} uploaded${failed ? `, ${failed} failed` : ""}.`;
    if (uploaded > 0) {
      // Show what was just uploaded: filter the list by the link id.
      clearFilters();
      $(FILTER_KEY[linkKey]).value = meta[linkKey];
      await search();
    }
  });

  // ---- List ----
  const filterForm = $("doc-filter-form");
  const listEl = $("doc-list");
  const listStatus = $("docs-status");
  const listError = $("docs-error");
  const searchButton = $("doc-search");
  const prev = $("doc-prev");
  const next = $("doc-next");
  const range = $("doc-range");
  const chips = ctx.documentTypes.map((t) => {
    const chip = h("button", { type: "button", class: "chip", "aria-pressed": "false", "data-type": t, text: t });
    chip.addEventListener("click", () => {
      chip.setAttribute("aria-pressed", chip.getAttribute("aria-pressed") === "true" ? "false" : "true");
      skip = 0;
      search();
    });
    return chip;
  });
  $("type-chips").append(...chips);
  let skip = 0;

  function query() {
    const q = {};
    const text = (id) => $(id).value.trim();
    if (text("f-title")) q.title = text("f-title");
    if (text("f-tenant")) q.tenantId = text("f-tenant");
    if (text("f-unit")) q.unitId = text("f-unit");
    if (text("f-property")) q.propertyId = text("f-property");
    if (text("f-group")) q.propertyGroupId = text("f-group");
    if (text("f-candidate")) q.candidateId = text("f-candidate");
    const types = chips.filter((c) => c.getAttribute("aria-pressed") === "true").map((c) => c.dataset.type);
    if (types.length) q.types = types;
    return q;
  }

  async function search() {
    showError(listError, null);
    const take = Number($("f-take").value);
    try {
      // One extra item tells whether there is a next page (the service sends no total).
      const docs = await busy(
        { region: listEl, buttons: [searchButton, prev, next], status: listStatus, label: "Loading documents…" },
        () => ctx.client.listDocuments({ ...query(), skip, take: take + 1 }),
      );
      const page = docs.slice(0, take);
      renderList(page);
      prev.disabled = skip === 0;
      next.disabled = docs.length <= take;
      range.textContent = page.length ? `Showing ${skip + 1}–${skip + page.length}` : "";
    } catch (error) {
      replace(listEl);
      range.textContent = "";
      showError(listError, error);
    }
  }

  function linkText(doc) {
    const parts = [];
    if (doc.tenantId) parts.push(`tenant ${doc.tenantId}`);
    if (doc.unitId) parts.push(`unit ${doc.unitId}`);
    if (doc.propertyId) parts.push(`property ${doc.propertyId}`);
    if (doc.propertyGroupId) parts.push(`group ${doc.propertyGroupId}`);
    if (doc.candidateId) parts.push(`candidate ${doc.candidateId}`);
    return parts.join(", ") || "—";
  }

  function renderList(docs) {
    if (docs.length === 0) {
      replace(listEl, h("p", { class: "empty", text: skip > 0 ? "No more documents." : "No documents match these filters." }));
      return;
    }
    const rows = docs.map((doc) => {
      const title = doc.title ?? doc.id;
      const open = h("button", { type: "button", class: "secondary small", text: "Details", "aria-label": `Details of ${title}` });
      open.addEventListener("click", () => showDetails(doc.id));
      const del = h("button", { type: "button", class: "danger small", text: "Delete", "aria-label": `Delete ${title}` });
      del.addEventListener("click", () => remove(doc, del));
      return h(
        "tr",
        { "data-id": doc.id },
        h("td", { "data-label": "Title", class: "break doc-title", text: title }),
        h("td", { "data-label": "Type" }, h("code", { text: doc.type ?? "—" })),
        h("td", { "data-label": "Linked to", class: "break", text: linkText(doc) }),
        h("td", { "data-label": "Size", text: typeof doc.size === "number" ? formatBytes(doc.size) : "—" }),
        h("td", { "data-label": "Created" }, h("time", { datetime: doc.createdAt ?? "", text: formatDate(doc.createdAt) })),
        h("td", { "data-label": "Actions" }, h("div", { class: "row-actions" }, open, del)),
      );
    });
    replace(
      listEl,
      h(
        "table",
        { class: "data", id: "documents-table" },
        h("caption", { class: "visually-hidden", text: "Documents" }),
        h("thead", {}, h("tr", {}, ["Title", "Type", "Linked to", "Size", "Created", "Actions"].map((t) => h("th", { scope: "col", text: t })))),
        h("tbody", {}, rows),
      ),
    );
  }

  filterForm.addEventListener("submit", (event) => {
    event.preventDefault();
    skip = 0;
    search();
  });
  function clearFilters() {
    for (const id of ["f-title", "f-tenant", "f-unit", "f-property", "f-group", "f-candidate"]) $(id).value = "";
    chips.forEach((c) => c.setAttribute("aria-pressed", "false"));
    skip = 0;
  }
  filterForm.addEventListener("reset", (event) => {
    event.preventDefault();
    clearFilters();
    search();
  });
  prev.addEventListener("click", () => {
    skip = Math.max(0, skip - Number($("f-take").value));
    search();
  });
  next.addEventListener("click", () => {
    skip += Number($("f-take").value);
    search();
  });

  // ---- Details and delete ----
  const details = $("doc-details");
  const detailsBody = $("doc-details-body");
  const detailsStatus = $("doc-details-status");
  const detailsError = $("doc-details-error");
  const detailsDelete = $("doc-details-delete");
  let shown = null;

  async function showDetails(id) {
    details.hidden = false;
    showError(detailsError, null);
    replace(detailsBody);
    detailsDelete.hidden = true;
    details.focus();
    try {
      const record = await busy({ region: details, status: detailsStatus, label: "Loading details…" }, () => ctx.client.getDocument(id));
      shown = record;
      $("doc-details-title").textContent = `Document: ${record.title ?? record.id}`;
      for (const [key, value] of Object.entries(record)) {
        let text;
        if (value === null || value === undefined) text = "—";
        else if (key === "size" && typeof value === "number") text = `${formatBytes(value)} (${value} bytes)`;
        else if (/At$/.test(key) && typeof value === "string") text = `${formatDate(value)} (${value})`;
        else if (typeof value === "object") text = JSON.stringify(value);
        else text = String(value);
        detailsBody.append(h("dt", { text: key }), h("dd", { class: "break", "data-key": key, text }));
      }
      detailsDelete.hidden = false;
    } catch (error) {
      showError(detailsError, error);
    }
  }
  $("doc-details-close").addEventListener("click", () => {
    details.hidden = true;
    shown = null;
    searchButton.focus();
  });
  detailsDelete.addEventListener("click", () => shown && remove(shown, detailsDelete, detailsError));

  async function remove(doc, button, box = listError) {
    const title = doc.title ?? doc.id;
    if (!(await confirmAction(`Delete the document “${title}”? This cannot be undone.`, "Delete document"))) {
      button.focus();
      return;
    }
    showError(box, null);
    try {
      await busy({ region: listEl, buttons: [button], status: listStatus, label: "Deleting…" }, () => ctx.client.deleteDocument(doc.id));
      if (shown?.id === doc.id) {
        details.hidden = true;
        shown = null;
      }
      await search();
      listStatus.textContent = `Deleted “${title}”.`;
      searchButton.focus();
    } catch (error) {
      showError(box, error);
    }
  }

  ctx.onConnect(() => {
    skip = 0;
    details.hidden = true;
    search();
  });
}
