// rulekeeper front page: open a pasted join link on this very server. The input has no name, so
// the form never sends the link (and its token) anywhere; a link of the old form (?token=) is
// opened in the fragment form, so its token reaches no server address either.
"use strict";
(() => {
  const form = document.getElementById("paste-form");
  const input = document.getElementById("paste-link");
  const error = document.getElementById("paste-error");
  if (!form || !input) return;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    error.textContent = "";
    let url = null;
    try { url = new URL(input.value.trim(), location.href); } catch (err) { url = null; }
    const token = url && (new URLSearchParams(url.hash.slice(1)).get("token") || url.searchParams.get("token"));
    if (!url || !/^\/campaigns\/[^/]+\/join$/.test(url.pathname) || !token) {
      error.textContent = "That is not a join link. A join link looks like http://HOST/campaigns/NAME/join#token=rk1.…; ask your GM for one.";
      input.focus();
      return;
    }
    input.value = "";
    location.assign(location.origin + url.pathname + "#token=" + encodeURIComponent(token));
  });
})();
