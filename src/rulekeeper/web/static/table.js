// rulekeeper pages: forms post JSON to the API, and the event stream keeps the page live.
// The page is rendered on the server; this script only sends commands and swaps in the live
// sections (re-rendered by the server for the same viewer) when an event arrives. It keeps the
// stream open itself (backoff, resuming after the last event seen) and says whether the page is
// live; every command carries the version it was made from (If-Match), so nothing applies twice.
"use strict";
(() => {
  const body = document.body;
  const campaign = body.dataset.campaign;
  if (!campaign) return;
  const base = "/api/campaigns/" + encodeURIComponent(campaign);
  let logCharacter = "";
  let openCites = false;

  // -- results: a panel that keeps each result whole, and a line under the form that asked ---
  // Toasts covered the controls and cut a result to three lines; a result here keeps every line
  // ("Dying", "Memorable Injury"), stays until the next one, and covers nothing: the panel is in
  // the page's flow, the line sits right under the form (or under the live section the form lives
  // in, which is re-rendered on every event).
  const panel = document.getElementById("results");
  const panelList = document.getElementById("results-list");
  const KEEP_RESULTS = 8;

  function resultNode(result, tag) {
    const node = document.createElement(tag);
    node.className = "result" + (result.bad ? " bad" : "") + (result.note ? " note" : "");
    const head = document.createElement("p");
    head.className = "result-head";
    head.textContent = result.head;
    node.append(head);
    if (result.lines.length) {
      const list = document.createElement("ul");
      list.className = "result-lines";
      for (const line of result.lines) {
        const li = document.createElement("li");
        li.textContent = line;
        list.append(li);
      }
      node.append(list);
    }
    return node;
  }

  function show(result, where) {
    if (panel && panelList) {
      panel.hidden = false;
      panelList.prepend(resultNode(result, "li"));
      while (panelList.children.length > KEEP_RESULTS) panelList.lastElementChild.remove();
    }
    if (!where) return;
    // Forms inside a live section are replaced on each event: their line goes after the section.
    const holder = where.closest("main [data-live]");  // body's data-live is the stream's state
    const anchor = holder || where;
    const key = holder ? "live-" + holder.dataset.live : formKey(where);
    let line = document.querySelector('[data-result-for="' + CSS.escape(key) + '"]');
    if (!line) {
      line = document.createElement("div");
      line.dataset.resultFor = key;
      anchor.after(line);
    }
    line.className = "form-result" + (result.bad ? " bad" : "");
    line.setAttribute("role", result.bad ? "alert" : "status");
    line.replaceChildren(resultNode(result, "div"));
  }

  function say(text, bad, where) { show({ head: text, lines: [], bad: !!bad }, where); }

  if (panel) {
    const clear = document.getElementById("results-clear");
    if (clear) clear.addEventListener("click", () => { panelList.replaceChildren(); panel.hidden = true; });
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
  // The one reading of a field, for the page's other scripts too (turn.js posts the player's turn).
  window.rulekeeperFields = Object.freeze({ valueOf });

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

  // -- versions: every command says which state it was made from (If-Match) ----------------
  // The page's version is the one it shows (set by each re-render). A form someone starts filling
  // in keeps the version of that moment: if the table moves on before they send it (another tab
  // applied the same damage), the server answers 412 and nothing is applied twice. The page's own
  // commands do not count as "changed since you looked".
  let shown = Number.parseInt(body.dataset.version || "0", 10);
  const madeFrom = new Map();  // form key -> version when someone began filling it in
  const retrying = new Map();  // form key -> {key, data}: an answer lost on the way, sent again

  function formKey(form) {
    return (form.dataset.method || "POST") + " " + (form.dataset.endpoint || form.id) + " " + (form.id || form.getAttribute("aria-label") || "");
  }

  function startedFilling(event) {
    const form = event.target.closest && event.target.closest("form.api");
    if (form && !madeFrom.has(formKey(form))) madeFrom.set(formKey(form), shown);
  }
  document.addEventListener("input", startedFilling);
  document.addEventListener("change", startedFilling);

  function versionOf(response) {
    const tag = response.headers.get("ETag") || "";
    const digits = tag.replace(/\D/g, "");
    return digits ? Number.parseInt(digits, 10) : null;
  }

  function ownCommand(version) {
    // Our own command moved the table from version-1 to version: whoever had seen version-1 has
    // seen what we did, so their forms stay current.
    if (version === null) return;
    if (shown === version - 1) shown = version;
    for (const [k, v] of madeFrom) if (v === version - 1) madeFrom.set(k, version);
  }

  async function send(method, url, data, headers, key) {
    const response = await fetch(url, {
      method,
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "Idempotency-Key": key || crypto.randomUUID(), ...(headers || {}) },
      body: data === undefined ? undefined : JSON.stringify(data),
    });
    let json = null;
    try { json = await response.json(); } catch (_) { json = null; }
    const version = versionOf(response);
    if (response.ok) ownCommand(version);
    return { ok: response.ok, status: response.status, json, version };
  }

  function resultOf(json) {
    const one = Array.isArray(json) ? json[json.length - 1] : json;
    const entry = one && one.entry;
    if (!entry) return { head: "done", lines: [] };
    const lines = (entry.explanation || []).map((s) => s.text);
    return { head: "#" + entry.seq + " " + (entry.summary || entry.action || entry.kind), lines };
  }

  function staleResult(p) {
    const lines = (p.changes || []).map((c) => "#" + c.seq + " " + c.summary);
    return {
      head: "This changed since you looked — nothing was applied. The page now shows the new state; send it again to apply it to that.",
      lines,
      bad: true,
    };
  }

  document.addEventListener("submit", async (event) => {
    const form = event.target;
    if (!form.classList.contains("api")) return;
    event.preventDefault();
    const data = bodyOf(form, event.submitter);
    const fkey = formKey(form);
    const based = madeFrom.has(fkey) ? madeFrom.get(fkey) : shown;
    // The same command sent again after its answer was lost keeps its key: applied once.
    const earlier = retrying.get(fkey);
    const idem = earlier && earlier.data === JSON.stringify(data) ? earlier.key : crypto.randomUUID();
    const buttons = form.querySelectorAll("button");
    buttons.forEach((b) => { b.disabled = true; });
    form.setAttribute("aria-busy", "true");
    try {
      const r = await send(form.dataset.method || "POST", form.dataset.endpoint, data, { "If-Match": '"' + based + '"' }, idem);
      retrying.delete(fkey);
      form.dataset.result = r.ok ? "ok" : "error";
      form.dataset.status = String(r.status);
      if (r.ok) {
        madeFrom.delete(fkey);
        show(resultOf(r.json), form);
      } else if (r.status === 412 && r.json) {
        // Looked again: the next send is made from the state the page is about to show.
        madeFrom.set(fkey, Number.isInteger(r.json.current_version) ? r.json.current_version : shown);
        show(staleResult(r.json), form);
      } else {
        show({ head: problemText(r.json, r.status), lines: [], bad: true }, form);
      }
      refresh();
    } catch (err) {
      retrying.set(fkey, { key: idem, data: JSON.stringify(data) });
      form.dataset.result = "error";
      show({ head: "Not sent: the server cannot be reached. Send it again when the page says Live (it will not apply twice).", lines: [], bad: true }, form);
    } finally {
      buttons.forEach((b) => { b.disabled = false; });
      form.removeAttribute("aria-busy");
    }
  });

  // -- live sections ------------------------------------------------------------------------
  let pending = null;
  let again = false;
  let behind = false;  // what the page shows may be older than the table: reload when back
  async function refresh() {
    if (pending) { again = true; return pending; }
    pending = (async () => {
      const query = logCharacter ? "?character=" + encodeURIComponent(logCharacter) : "";
      let data;
      try {
        const r = await fetch("/campaigns/" + encodeURIComponent(campaign) + "/live" + query, { credentials: "same-origin" });
        if (r.status === 401 || r.status === 403) { stop("this link no longer works (revoked or expired); ask the GM for a new one"); return; }
        if (!r.ok) { behind = true; return; }
        data = await r.json();
      } catch (_) {
        behind = true;  // the network went while reloading: done again once live
        return;
      }
      behind = false;
      const waited = waitingForMe();
      for (const [name, html] of Object.entries(data.sections)) {
        const holder = document.querySelector('[data-live="' + name + '"]');
        if (holder) swap(holder, html);
      }
      shown = data.version;
      body.dataset.version = String(data.version);
      if (data.version > lastSeen) lastSeen = data.version;
      if (openCites) document.querySelectorAll("details.cite").forEach((d) => { d.open = true; });
      alertNew(waited);
    })().finally(() => {
      pending = null;
      if (again) { again = false; refresh(); }
    });
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

  // -- the stream, and saying whether the page is live ---------------------------------------
  // EventSource retries by itself, but silently, and gives up for good on an HTTP error (a
  // restarting server's 502/503). Here each drop closes it and a new one is opened with backoff
  // (0.5 s doubling to 15 s, with jitter so a room of phones does not knock at once), resuming
  // after the last event seen; the indicator says live, reconnecting or offline, and since when.
  const bar = document.getElementById("live-bar");
  const indicator = document.getElementById("live-indicator");
  const indicatorText = indicator && indicator.querySelector(".live-text");
  const retryButton = document.getElementById("live-retry");
  let lastSeen = shown;
  let source = null;
  let tries = 0;
  let timer = null;
  let downSince = null;
  let ended = false;

  function clock(date) {
    return date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
  }

  function setLive(state, text) {
    body.dataset.live = state;
    if (!indicator) return;
    indicator.dataset.state = state;
    indicatorText.textContent = text;
    if (retryButton) retryButton.hidden = state === "on" || ended;
  }

  function notLive(state, why) {
    if (downSince === null) downSince = new Date();
    const since = " — not live since " + clock(downSince) + "; what you see may be out of date";
    setLive(state, why + since);
  }

  function connect() {
    clearTimeout(timer);
    timer = null;
    if (ended) return;
    if (source) source.close();
    const url = base + "/events?last_event_id=" + encodeURIComponent(String(lastSeen));
    const es = new EventSource(url, { withCredentials: true });
    source = es;
    es.addEventListener("open", () => {
      if (source !== es) return;
      const wasDown = downSince !== null || tries > 0;
      tries = 0;
      downSince = null;
      setLive("on", "Live");
      // The backlog after lastSeen arrives as events; a page that failed to reload meanwhile
      // (or was never sure it caught up) reloads its live sections now.
      if (behind || wasDown) refresh();
    });
    es.addEventListener("command", (e) => {
      const id = Number.parseInt(e.lastEventId || "0", 10);
      if (id > lastSeen) lastSeen = id;
      refresh();
    });
    es.addEventListener("reset", (e) => {
      // Catching up by events is impossible (the server's history is not the one this page saw):
      // reload every live section from what the server has now.
      let v = null;
      try { v = JSON.parse(e.data).version; } catch (_) { v = null; }
      if (Number.isInteger(v)) { lastSeen = v; shown = v; madeFrom.clear(); }
      say("The server's history changed under this page: it was reloaded from the server.", true);
      refresh();
    });
    es.addEventListener("revoked", () => stop("your link was revoked; ask the GM for a new one"));
    es.addEventListener("error", () => {
      if (source !== es) return;
      es.close();
      source = null;
      later();
    });
  }

  function stop(why) {
    if (ended) return;
    ended = true;
    if (source) { source.close(); source = null; }
    clearTimeout(timer);
    setLive("off", "Not live: " + why);
    say("Not live: " + why, true);
  }

  function later() {
    if (ended) return;
    tries += 1;
    // A stream refused again and again may be a link revoked meanwhile: the page reload asks.
    if (tries % 3 === 0) refresh();
    const delay = Math.min(15000, 500 * 2 ** Math.min(tries - 1, 5)) * (0.8 + 0.4 * Math.random());
    if (navigator.onLine === false) {
      notLive("offline", "Offline");
      return;  // the "online" event reconnects at once
    }
    notLive("reconnecting", "Reconnecting (try " + tries + ", next in " + Math.max(1, Math.round(delay / 1000)) + " s)");
    clearTimeout(timer);
    timer = setTimeout(connect, delay);
  }

  window.addEventListener("offline", () => {
    if (ended) return;
    if (source) { source.close(); source = null; }
    clearTimeout(timer);
    notLive("offline", "Offline");
  });
  window.addEventListener("online", () => { tries = 0; connect(); });
  document.addEventListener("visibilitychange", () => {
    // A phone back from the lock screen: a stream the system cut while asleep is opened again.
    if (document.visibilityState === "visible" && !ended && (source === null || source.readyState === EventSource.CLOSED)) connect();
  });
  if (retryButton) retryButton.addEventListener("click", () => { tries = 0; connect(); });
  if (bar) bar.hidden = false;
  setLive("connecting", "Connecting…");
  connect();

  // -- alerts: a roll or a defence waiting for this player -----------------------------------
  // Only the player's own page, and only what its live sections show them (already filtered for
  // the seat by the server): a check of theirs (#checks li.pending) or anything the server marks
  // data-alert (a defence to choose). Vibration and a short tone need a tap first; a
  // notification needs the player's permission, asked only when they tap "Alerts".
  const alertsButton = document.getElementById("alerts-toggle");
  const alertsOn = () => localStorage.getItem("rulekeeper-alerts") === "on";
  let audio = null;

  function waitingForMe() {
    if (!body.classList.contains("player")) return null;
    const ids = new Set();
    document.querySelectorAll('[data-live="checks"] li.pending[data-pending]').forEach((el) => ids.add("check " + el.dataset.pending));
    document.querySelectorAll("main [data-live] [data-alert]").forEach((el) => ids.add("alert " + el.dataset.alert));
    return ids;
  }

  function describe(key) {
    const [kind, id] = key.split(" ");
    const el = kind === "check"
      ? document.querySelector('[data-live="checks"] li.pending[data-pending="' + CSS.escape(id) + '"]')
      : document.querySelector('main [data-live] [data-alert="' + CSS.escape(id) + '"]');
    const first = el && (el.querySelector("p") || el);
    return first ? first.textContent.replace(/\s+/g, " ").trim() : "something waits for you";
  }

  function beep() {
    try {
      audio = audio || new AudioContext();
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = 880;
      gain.gain.setValueAtTime(0.0001, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.25, audio.currentTime + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.25);
      osc.connect(gain).connect(audio.destination);
      osc.start();
      osc.stop(audio.currentTime + 0.3);
    } catch (_) { /* no sound on this device: the vibration and the line on the page remain */ }
  }

  function alertNew(before) {
    if (before === null) return;
    const now = waitingForMe();
    const fresh = [...now].filter((k) => !before.has(k));
    if (!fresh.length) return;
    const text = fresh.map(describe).join("; ");
    body.dataset.alerts = String(Number.parseInt(body.dataset.alerts || "0", 10) + 1);
    show({ head: "Waiting for you: " + text, lines: [], note: true });
    if (!alertsOn()) return;
    if (navigator.vibrate) navigator.vibrate([200, 100, 200]);
    beep();
    if ("Notification" in window && Notification.permission === "granted") {
      try { new Notification("rulekeeper: your turn to roll", { body: text, tag: "rulekeeper-" + campaign }); } catch (_) { /* not shown on this device */ }
    }
  }

  function paintAlerts() {
    if (!alertsButton) return;
    const on = alertsOn();
    alertsButton.setAttribute("aria-pressed", String(on));
    alertsButton.textContent = on ? "Alerts on" : "Alerts off";
  }

  if (alertsButton && body.classList.contains("player")) {
    alertsButton.hidden = false;
    paintAlerts();
    alertsButton.addEventListener("click", async () => {
      const on = !alertsOn();
      localStorage.setItem("rulekeeper-alerts", on ? "on" : "off");
      paintAlerts();
      if (!on) return;
      // This tap is the user's gesture that sound, vibration and the permission question need.
      audio = audio || new AudioContext();
      if (audio.state === "suspended") audio.resume();
      if ("Notification" in window && Notification.permission === "default") {
        try { await Notification.requestPermission(); } catch (_) { /* refused or unsupported */ }
      }
    });
    // A page that had alerts on before: its audio wakes with the first tap anywhere.
    document.addEventListener("pointerdown", () => {
      if (alertsOn() && (audio === null || audio.state === "suspended")) {
        audio = audio || new AudioContext();
        audio.resume();
      }
    }, { once: true });
  }

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
    if (!r.ok) { say(problemText(p, r.status), true, undoForm); return; }
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
      if (res.ok) show(resultOf(res.json), undoForm);
      else if (res.status === 412 && res.json) show(staleResult(res.json), undoForm);
      else say(problemText(res.json, res.status), true, undoForm);
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
    if (!r.ok) { say(problemText(r.json, r.status), true, inviteForm); return; }
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
    copy.addEventListener("click", () => navigator.clipboard.writeText(link).then(() => say("link copied", false, inviteForm)));
    const pic = document.createElement("div");
    pic.className = "qr";
    if (qr.ok) pic.innerHTML = await qr.text();
    box.append(h, a, copy, pic);
    inviteResult.prepend(box);
    say("invite made for " + r.json.member.name, false, inviteForm);
  });
})();
