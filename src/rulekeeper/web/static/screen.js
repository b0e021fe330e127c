// Screen-share view: the table for a TV. It only listens: each event of its own stream (an
// observer's, so no GM secret reaches this browser) makes it fetch its sections again.
"use strict";
(() => {
  const body = document.body;
  const campaign = body.dataset.screen;
  if (!campaign) return;
  const path = "/campaigns/" + encodeURIComponent(campaign) + "/screen";
  let busy = null;
  let again = false;

  // An event that arrives while the sections are being fetched asks for one more fetch once that
  // one is done (that fetch may have been answered before the event's command): never dropped.
  async function refresh() {
    if (busy) { again = true; return busy; }
    busy = (async () => {
      const r = await fetch(path + "/live", { credentials: "same-origin" });
      if (!r.ok) return;
      const data = await r.json();
      for (const [name, html] of Object.entries(data.sections)) {
        const holder = document.querySelector('[data-live="' + name + '"]');
        if (holder) holder.innerHTML = html;
      }
      body.dataset.version = String(data.version);
    })().finally(() => {
      busy = null;
      if (again) { again = false; refresh(); }
    });
    return busy;
  }

  const source = new EventSource(path + "/events?last_event_id=" + encodeURIComponent(body.dataset.version || "0"), { withCredentials: true });
  source.addEventListener("open", () => { body.dataset.live = "on"; refresh(); });
  source.addEventListener("command", () => { refresh(); });
  source.addEventListener("revoked", () => { source.close(); body.dataset.live = "off"; });
  source.addEventListener("error", () => { body.dataset.live = "reconnecting"; });
})();
