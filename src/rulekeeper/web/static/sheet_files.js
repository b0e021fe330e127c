// rulekeeper GM dashboard: add or update a character from a sheet file (a .gcs file), dropped on
// the form or chosen. The file is read in the browser and sent as JSON to the same API the CLI's
// `char add --gcs` / `char update --gcs` use; the answer's report is shown as the CLI prints it.
"use strict";
(() => {
  const campaign = document.body.dataset.campaign;
  if (!campaign) return;
  const base = "/api/campaigns/" + encodeURIComponent(campaign) + "/characters";
  const report = document.getElementById("sheet-file-report");
  const MAX_BYTES = 1 << 20; // docs/limits.md: a document is at most 1 MiB

  function show(title, lines, bad) {
    const box = document.createElement("div");
    box.className = "sheet-report" + (bad ? " bad" : "");
    box.setAttribute("role", bad ? "alert" : "status");
    const head = document.createElement("p");
    head.textContent = title;
    box.append(head);
    if (lines.length) {
      const list = document.createElement("ul");
      for (const line of lines) {
        const item = document.createElement("li");
        item.textContent = line;
        list.append(item);
      }
      box.append(list);
    }
    report.replaceChildren(box);
  }

  function problemText(p, status) {
    if (!p) return "error " + status;
    let text = p.detail || p.title || "error " + status;
    if (p.expected) text += " — expected " + p.expected;
    return text;
  }

  function idFrom(name) {
    return name.replace(/\.[^.]*$/, "").toLowerCase().replace(/[^a-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "");
  }

  for (const form of document.querySelectorAll("form.sheet-file")) {
    const input = form.querySelector('input[type="file"]');
    const zone = form.querySelector("[data-drop]");
    const actor = form.elements.namedItem("actor");
    const fillActor = () => {
      if (!actor.value && input.files.length) actor.value = idFrom(input.files[0].name);
    };
    input.addEventListener("change", fillActor);
    zone.addEventListener("dragover", (event) => { event.preventDefault(); zone.classList.add("over"); });
    zone.addEventListener("dragleave", () => zone.classList.remove("over"));
    zone.addEventListener("drop", (event) => {
      event.preventDefault();
      zone.classList.remove("over");
      if (event.dataTransfer && event.dataTransfer.files.length) {
        input.files = event.dataTransfer.files;
        fillActor();
      }
    });

    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const file = input.files[0];
      const title = form.dataset.title;
      if (!file) { show("Choose a " + title + " file first.", [], true); return; }
      if (file.size > MAX_BYTES) {
        show(file.name + " is " + file.size + " bytes: too large for a " + title + " file (at most " + MAX_BYTES + ").", [], true);
        return;
      }
      let parsed;
      try {
        parsed = JSON.parse(await file.text());
      } catch (err) {
        show(file.name + " is not a " + title + " file: it is not JSON (" + err.message + ").", [], true);
        return;
      }
      const id = actor.value.trim();
      const update = form.elements.namedItem("mode").value === "update";
      const format = encodeURIComponent(form.dataset.format);
      const url = update ? base + "/" + encodeURIComponent(id) + "/files/" + format : base + "/files/" + format;
      const data = { document: parsed, file_name: file.name };
      if (!update) Object.assign(data, { actor: id, npc: form.elements.namedItem("npc").checked });
      const button = form.querySelector("button");
      button.disabled = true;
      form.setAttribute("aria-busy", "true");
      try {
        const response = await fetch(url, {
          method: update ? "PUT" : "POST",
          credentials: "same-origin",
          // If-Match: the version the page showed when the file was sent (412 if the table moved on).
          headers: {
            "Content-Type": "application/json",
            "Idempotency-Key": crypto.randomUUID(),
            "If-Match": '"' + (document.body.dataset.version || "0") + '"',
          },
          body: JSON.stringify(data),
        });
        let json = null;
        try { json = await response.json(); } catch (_) { json = null; }
        form.dataset.result = response.ok ? "ok" : "error";
        if (!response.ok) { show(file.name + ": " + problemText(json, response.status), [], true); return; }
        const entry = json.entry || {};
        const done = "#" + entry.seq + " " + (update ? "updated " : "added ") + id + " from " + file.name;
        const steps = update ? (entry.explanation || []).map((s) => s.text) : [];
        const notes = (json.sheet_file && json.sheet_file.notes) || [];
        show(done + ".", [...steps, ...notes], false);
      } catch (err) {
        form.dataset.result = "error";
        show("the server cannot be reached: " + err, [], true);
      } finally {
        button.disabled = false;
        form.removeAttribute("aria-busy");
      }
    });
  }
})();
