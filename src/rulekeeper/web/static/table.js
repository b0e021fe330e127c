// rulekeeper pages: forms post JSON to the API, and the event stream keeps the page live.
// The page is rendered on the server; this script only sends commands and swaps in the live
// sections (re-rendered by the server for the same viewer) when an event arrives.
"use strict";
(() => {
  const body = document.body;
  const campaign = body.dataset.campaign;
  if (!campaign) return;
  const base = "/api/campaigns/" + encodeURIComponent(campaign);
  const toast = document.getElementById("toast");
  let logCharacter = "";
  let openCites = false;

  function say(text, bad) {
    toast.textContent = text;
    toast.className = "toast show" + (bad ? " bad" : "");
    toast.setAttribute("role", bad ? "alert" : "status");
    clearTimeout(say.timer);
    say.timer = setTimeout(() => { toast.className = "toast"; }, bad ? 9000 : 5000);
  }

  // One field's value by its kind (the ParamSpec kind the server wrote on it); undefined: leave out.
  function valueOf(el) {
    const kind = el.dataset.kind || "str";
    // A checkbox left as it was sends nothing: the rules' default (or the current setting) holds.
    if (kind === "bool") return String(el.checked) === el.dataset.default ? undefined : el.checked;
    const raw = el.value.trim();
    if (raw === "") return undefined;
    if (kind === "int") return Number.parseInt(raw, 10);
    if (kind === "float") return Number.parseFloat(raw);
    if (kind === "ints") return raw.split(/[\s,]+/).filter(Boolean).map((x) => Number.parseInt(x, 10));
    // Typed dice go as typed: the server reads "4+4+4" and refuses "5-3-2" by one rule for all.
    if (kind === "dice") return raw;
    if (kind === "duration" && /^\d+$/.test(raw)) return Number.parseInt(raw, 10);
    return raw;
  }

  function bodyOf(form, submitter) {
    const out = {};
    for (const el of form.querySelectorAll("input[name], select[name]")) {
      if (el.type === "checkbox" && el.dataset.kind !== "bool") continue;
      const value = valueOf(el);
      if (value === undefined) continue;
      const [group, key] = el.name.includes(":") ? el.name.split(/:(.*)/s, 2) : [null, el.name];
      if (group) (out[group] = out[group] || {})[key] = value;
      else out[key] = value;
    }
    if (submitter && submitter.value === "server") delete out.dice;
    return out;
  }

  function problemText(p, status) {
    if (!p) return "error " + status;
    let text = p.detail || p.title || "error " + status;
    if (p.expected) text += " — expected " + p.expected;
    return text;
  }

  async function send(method, url, data, headers) {
    const response = await fetch(url, {
      method,
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "Idempotency-Key": crypto.randomUUID(), ...(headers || {}) },
      body: data === undefined ? undefined : JSON.stringify(data),
    });
    let json = null;
    try { json = await response.json(); } catch (_) { json = null; }
    return { ok: response.ok, status: response.status, json };
  }

  function summaryOf(json) {
    const one = Array.isArray(json) ? json[json.length - 1] : json;
    const entry = one && one.entry;
    if (!entry) return "done";
    const lines = (entry.explanation || []).map((s) => s.text);
    return "#" + entry.seq + " " + (entry.summary || entry.kind) + (lines.length ? ": " + lines.slice(0, 3).join(" ") : "");
  }

  document.addEventListener("submit", async (event) => {
    const form = event.target;
    if (!form.classList.contains("api")) return;
    event.preventDefault();
    const data = bodyOf(form, event.submitter);
    const buttons = form.querySelectorAll("button");
    buttons.forEach((b) => { b.disabled = true; });
    form.setAttribute("aria-busy", "true");
    try {
      const r = await send(form.dataset.method || "POST", form.dataset.endpoint, data);
      form.dataset.result = r.ok ? "ok" : "error";
      form.dataset.status = String(r.status);
      say(r.ok ? summaryOf(r.json) : problemText(r.json, r.status), !r.ok);
      if (r.ok) refresh();
    } catch (err) {
      form.dataset.result = "error";
      say("the server cannot be reached: " + err, true);
    } finally {
      buttons.forEach((b) => { b.disabled = false; });
      form.removeAttribute("aria-busy");
    }
  });

  // -- live sections ------------------------------------------------------------------------
  let pending = null;
  async function refresh() {
    if (pending) return pending;
    pending = (async () => {
      const query = logCharacter ? "?character=" + encodeURIComponent(logCharacter) : "";
      const r = await fetch("/campaigns/" + encodeURIComponent(campaign) + "/live" + query, { credentials: "same-origin" });
      if (!r.ok) return;
      const data = await r.json();
      for (const [name, html] of Object.entries(data.sections)) {
        const holder = document.querySelector('[data-live="' + name + '"]');
        if (holder) swap(holder, html);
      }
      body.dataset.version = String(data.version);
      if (openCites) document.querySelectorAll("details.cite").forEach((d) => { d.open = true; });
    })().finally(() => { pending = null; });
    return pending;
  }

  // Keep what someone is typing (dice for a pending check) and where the focus is.
  function swap(holder, html) {
    const kept = {};
    holder.querySelectorAll("input[id]").forEach((el) => { if (el.value) kept[el.id] = el.value; });
    const opened = new Set([...holder.querySelectorAll("details[open][id]")].map((d) => d.id));
    const focused = holder.contains(document.activeElement) ? document.activeElement.id : null;
    holder.innerHTML = html;
    for (const [id, value] of Object.entries(kept)) {
      const el = document.getElementById(id);
      if (el && holder.contains(el)) el.value = value;
    }
    opened.forEach((id) => { const d = document.getElementById(id); if (d) d.open = true; });
    if (focused) { const el = document.getElementById(focused); if (el) el.focus(); }
  }

  function listen() {
    const url = base + "/events?last_event_id=" + encodeURIComponent(body.dataset.version || "0");
    const source = new EventSource(url, { withCredentials: true });
    source.addEventListener("open", () => { body.dataset.live = "on"; });
    source.addEventListener("command", () => { refresh(); });
    source.addEventListener("revoked", () => { source.close(); body.dataset.live = "off"; say("your link was revoked", true); });
    source.addEventListener("error", () => { body.dataset.live = "reconnecting"; });
  }
  listen();

  // -- log tools ----------------------------------------------------------------------------
  const filter = document.querySelector("[data-log-filter]");
  if (filter) filter.addEventListener("change", () => { logCharacter = filter.value; refresh(); });
  const cites = document.querySelector("[data-show-cites]");
  if (cites) cites.addEventListener("change", () => {
    openCites = cites.checked;
    document.querySelectorAll("details.cite").forEach((d) => { d.open = openCites; });
  });

  const actionFilter = document.getElementById("action-filter");
  if (actionFilter) actionFilter.addEventListener("input", () => {
    const q = actionFilter.value.trim().toLowerCase().replace(/\s+/g, "_");
    document.querySelectorAll("details.action").forEach((d) => { d.hidden = q !== "" && !d.dataset.action.includes(q); });
  });

  // -- undo with its preview ----------------------------------------------------------------
  const undoForm = document.getElementById("undo-form");
  const undoPreview = document.getElementById("undo-preview");
  if (undoForm) undoForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const seq = undoForm.elements.seq.value.trim();
    const r = await fetch(base + "/undo/preview" + (seq ? "?seq=" + encodeURIComponent(seq) : ""), { credentials: "same-origin" });
    const p = await r.json().catch(() => null);
    undoPreview.replaceChildren();
    if (!r.ok) { say(problemText(p, r.status), true); return; }
    const title = document.createElement("h3");
    title.textContent = "Undo takes " + p.commands.length + " command" + (p.commands.length === 1 ? "" : "s") + " with it";
    const list = document.createElement("ul");
    list.className = "undo-list";
    for (const c of p.commands) {
      const li = document.createElement("li");
      li.textContent = "#" + c.seq + " " + c.summary + " — " + c.reason;
      list.append(li);
    }
    const confirm = document.createElement("button");
    confirm.type = "button";
    confirm.id = "undo-confirm";
    confirm.textContent = "Undo " + p.commands.length + " command" + (p.commands.length === 1 ? "" : "s");
    const cancel = document.createElement("button");
    cancel.type = "button";
    cancel.className = "secondary";
    cancel.textContent = "Cancel";
    cancel.addEventListener("click", () => undoPreview.replaceChildren());
    confirm.addEventListener("click", async () => {
      // If-Match: undo exactly what was previewed; a command made since is a 412, not a surprise.
      const data = seq ? { seq: Number.parseInt(seq, 10) } : {};
      const res = await send("POST", base + "/undo", data, { "If-Match": '"' + p.version + '"' });
      say(res.ok ? summaryOf(res.json) : problemText(res.json, res.status), !res.ok);
      undoPreview.replaceChildren();
      refresh();
    });
    undoPreview.append(title, list, confirm, cancel);
    confirm.focus();
  });

  // -- invites ------------------------------------------------------------------------------
  const inviteForm = document.getElementById("invite-form");
  const inviteResult = document.getElementById("invite-result");
  if (inviteForm) inviteForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const f = inviteForm.elements;
    const chars = [...inviteForm.querySelectorAll('input[name="characters"]:checked')].map((x) => x.value);
    const r = await send("POST", inviteForm.dataset.endpoint, { name: f.name.value.trim(), role: f.role.value, characters: chars });
    if (!r.ok) { say(problemText(r.json, r.status), true); return; }
    // The join link goes to this very server, whatever address the GM opened it with.
    const url = new URL(r.json.join_url);
    const link = location.origin + url.pathname + url.search + url.hash;  // the token is in the fragment
    const qr = await fetch("/campaigns/" + encodeURIComponent(campaign) + "/qr", {
      method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ text: link }),
    });
    const box = document.createElement("div");
    box.className = "invite";
    const h = document.createElement("h3");
    h.textContent = "Link for " + r.json.member.name + " (shown once)";
    const a = document.createElement("a");
    a.href = link; a.textContent = link; a.className = "join-link";
    const copy = document.createElement("button");
    copy.type = "button"; copy.className = "secondary"; copy.textContent = "Copy link";
    copy.addEventListener("click", () => navigator.clipboard.writeText(link).then(() => say("link copied")));
    const pic = document.createElement("div");
    pic.className = "qr";
    if (qr.ok) pic.innerHTML = await qr.text();
    box.append(h, a, copy, pic);
    inviteResult.prepend(box);
    say("invite made for " + r.json.member.name);
  });
})();
