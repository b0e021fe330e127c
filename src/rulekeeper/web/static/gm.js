// The dashboard's members panel: a new invite (made by table.js's invite form) adds a member,
// which no campaign event announces, so the list is fetched again when an invite appears.
"use strict";
(() => {
  const campaign = document.body.dataset.campaign;
  const result = document.getElementById("invite-result");
  const list = document.querySelector('[data-live="members"]');
  if (!campaign || !result || !list) return;
  new MutationObserver(async () => {
    const r = await fetch("/campaigns/" + encodeURIComponent(campaign) + "/live", { credentials: "same-origin" });
    if (!r.ok) return;
    const data = await r.json();
    if (data.sections && data.sections.members !== undefined) list.innerHTML = data.sections.members;
  }).observe(result, { childList: true });
})();
