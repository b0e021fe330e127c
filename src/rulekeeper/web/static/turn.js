// The player's turn (templates/turn.html): taps and forms post the system's own actions to the
// API, the same as any client's, and the answer stays in the result panel, whole: the outcome's
// lines, a refusal in the server's words, or "waiting for the GM" for an action on another's
// character (the player's-seat rules turn it into a request; "Your requests" follows it).
"use strict";
(() => {
  const campaign = document.body.dataset.campaign;
  const holder = document.querySelector('[data-live="turn"]');
  const panel = document.getElementById("turn-result");
  if (!campaign || !holder || !panel) return;

  // Choices made in a form survive the live re-render of the section (table.js keeps only
  // typed text): remembered by the select's id, put back after every swap.
  const chosen = new Map();
  // The request this panel announced as waiting for the GM, until the GM answers it.
  let waitingFor = null;
  holder.addEventListener("change", (event) => {
    const el = event.target;
    if (el instanceof HTMLSelectElement && el.id) chosen.set(el.id, el.value);
  });
  new MutationObserver(() => {
    for (const [id, value] of chosen) {
      const el = document.getElementById(id);
      if (el instanceof HTMLSelectElement && holder.contains(el)) el.value = value;
    }
  }).observe(holder, { childList: true });

  // A field read as the rest of the page reads it (static/table.js, loaded first).
  const valueOf = window.rulekeeperFields.valueOf;

  function show(kind, title, lines) {
    panel.hidden = false;
    panel.className = "turn-result" + (kind ? " " + kind : "");
    panel.dataset.state = kind || "done";
    const head = document.createElement("p");
    const strong = document.createElement("strong");
    strong.textContent = title;
    head.append(strong);
    panel.replaceChildren(head);
    if (lines.length) {
      const list = document.createElement("ol");
      for (const text of lines) {
        const li = document.createElement("li");
        li.textContent = text;
        list.append(li);
      }
      panel.append(list);
    }
  }

  function problemText(p, status) {
    if (!p) return "the server answered " + status;
    let text = p.detail || p.title || "the server answered " + status;
    if (p.expected) text += " — expected " + p.expected;
    return text;
  }

  async function post(actor, endpoint, body, label) {
    const dice = holder.querySelector('[data-turn="' + CSS.escape(actor) + '"] .turn-rolled');
    if (dice && dice.value.trim()) body.rolled = dice.value.trim();
    waitingFor = null;
    show("", label + ": sending…", []);
    let response;
    try {
      response = await fetch(endpoint, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "Idempotency-Key": crypto.randomUUID() },
        body: JSON.stringify(body),
      });
    } catch (err) {
      show("bad", label + ": the server cannot be reached", [String(err)]);
      return;
    }
    const json = await response.json().catch(() => null);
    if (!response.ok) { show("bad", label + ": refused", [problemText(json, response.status)]); return; }
    if (dice) dice.value = "";
    if (json && json.request) {
      const r = json.request;
      waitingFor = { id: String(r.id), label };
      show("waiting", label + ": waiting for the GM (request #" + r.id + ")", (r.others && r.others.length) ? ["it touches " + r.others.join(", ") + "; the GM approves it or not, under Your requests"] : []);
      return;
    }
    const entry = json && json.entry;
    const lines = entry ? (entry.explanation || []).map((s) => s.text) : [];
    show("", label + (entry ? " — #" + entry.seq : ""), lines);
  }

  // A request's answer: "Your requests" is re-rendered live; when the one this panel waits for
  // is answered, the panel says so (its outcome is in the log, in the rules' words).
  const requests = document.querySelector('[data-live="requests"]');
  if (requests) new MutationObserver(() => {
    if (!waitingFor) return;
    const row = requests.querySelector('[data-request="' + CSS.escape(waitingFor.id) + '"]');
    const status = row && row.dataset.status;
    if (!status || status === "waiting") return;
    const note = row.querySelector(".muted");
    show(status === "approved" ? "" : "bad", waitingFor.label + ": " + status + " by the GM (request #" + waitingFor.id + ")",
      note ? [note.textContent.replace(/^\(|\)$/g, "")] : (status === "approved" ? ["its outcome is in the log"] : []));
    waitingFor = null;
  }).observe(requests, { childList: true, subtree: true });

  holder.addEventListener("click", (event) => {
    const button = event.target.closest("button.tap");
    if (!button) return;
    const spec = JSON.parse(button.dataset.turnTap);
    const body = { actor: spec.actor, params: spec.params };
    button.disabled = true;
    post(spec.actor, button.dataset.endpoint + "/" + spec.action, body, button.textContent.trim())
      .finally(() => { button.disabled = false; });
  });

  holder.addEventListener("submit", (event) => {
    const form = event.target.closest("form.turn-form");
    if (!form) return;
    event.preventDefault();
    const params = {};
    for (const el of form.querySelectorAll("input[name], select[name]")) {
      const value = valueOf(el);
      if (value === undefined) continue;
      params[el.name.replace(/^params:/, "")] = value;
    }
    const label = form.querySelector("button[type=submit]").textContent.trim();
    post(form.dataset.actor, form.dataset.endpoint, { actor: form.dataset.actor, params }, label);
  });
})();
