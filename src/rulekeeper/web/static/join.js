// rulekeeper join page: the link's token is in the fragment (#token=...), which no browser sends
// to a server. Take it out of the address bar at once (so neither history nor a shared screen
// keeps it), hand it to the server in a same-origin JSON POST, and open the campaign's page.
// A browser signed in to the campaign as someone else is asked before it switches.
"use strict";
(() => {
  const box = document.getElementById("join");
  if (!box) return;
  const status = document.getElementById("join-status");
  const ask = document.getElementById("join-ask");
  const failed = document.getElementById("join-failed");
  const token = new URLSearchParams(location.hash.slice(1)).get("token");
  if (location.hash) history.replaceState(null, "", location.pathname);

  function fail(text) {
    status.textContent = text;
    failed.hidden = false;
  }

  async function exchange(replace) {
    let r;
    try {
      r = await fetch(box.dataset.endpoint, {
        method: "POST",
        credentials: "same-origin",
        cache: "no-store",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ token, replace }),
      });
    } catch (err) {
      fail("The server did not answer. Check your connection and open the link again.");
      return;
    }
    let body = null;
    try { body = await r.json(); } catch (err) { body = null; }
    if (!r.ok) {
      fail((body && body.detail) || ("The server refused the link (" + r.status + ")."));
      return;
    }
    if (body.status === "ask") {
      for (const id of ["join-current", "join-current-again"]) document.getElementById(id).textContent = body.current;
      for (const id of ["join-incoming", "join-incoming-again"]) document.getElementById(id).textContent = body.incoming;
      status.textContent = "Switch who you are in " + body.campaign + "?";
      ask.hidden = false;
      document.getElementById("join-yes").focus();
      return;
    }
    status.textContent = "Signed in as " + body.incoming + ". Opening the table…";
    location.replace(body.location);
  }

  if (!token) {
    fail("This link holds no invitation: it should end in #token=… Open the whole link your GM sent.");
    return;
  }
  document.getElementById("join-yes").addEventListener("click", () => {
    ask.hidden = true;
    status.textContent = "Switching…";
    exchange(true);
  });
  exchange(false);
})();
