"use strict";
// A profile's or comparison's change page (templates/admin/editorial/sectioned_change_form.html):
//
// - Autosave: what the editor types is kept in this browser (localStorage) until it is saved.
//   After a crash or a reload the page offers “Restore unsaved changes?”; restoring fills the
//   fields again and the revision they were typed against, so the server merges them with any
//   save made since, as it does for a form left open (editorial/merge.py).
// - Presence: every 30 s the page tells the server it is still open, and when it closes, so
//   “Also here: …” names only who has the page open now (editorial/presence.py).
(function () {
  const script = document.currentScript;
  const form = document.querySelector(".sectioned-form form[method=post]");
  if (!form || !script) {
    return;
  }
  const token = form.elements.csrfmiddlewaretoken ? form.elements.csrfmiddlewaretoken.value : "";
  const key = `chipsite:unsaved:${location.pathname}`;
  const revision = form.elements.opened_revision;
  const SKIP = new Set(["csrfmiddlewaretoken", "opened_revision", "revision_comment"]);

  // Each named field in the page's order. A name may stand on several fields (a row citing two
  // sources has a set of evidence fields a source), so values are kept a list a name, in that
  // order, and filled back the same way: never by ``form.elements[name]``, which is then a list.
  function named() {
    return Array.from(form.elements).filter(
      (el) =>
        el.name &&
        !SKIP.has(el.name) &&
        !el.name.includes("__prefix__") &&
        !["file", "submit", "button", "reset"].includes(el.type),
    );
  }

  function valueOf(el) {
    if (el.type === "checkbox" || el.type === "radio") return el.checked;
    if (el.multiple) return Array.from(el.selectedOptions, (o) => o.value);
    return el.value;
  }

  function fields() {
    const values = {};
    for (const el of named()) (values[el.name] ||= []).push(valueOf(el));
    return values;
  }

  function fill(values) {
    const seen = {};
    for (const el of named()) {
      const given = values[el.name];
      const at = (seen[el.name] = el.name in seen ? seen[el.name] + 1 : 0);
      // a row added before the reload is not on the page any more; a draft kept by an older
      // page (one value a name) is left as it is
      if (!Array.isArray(given) || at >= given.length) continue;
      const value = given[at];
      if (el.type === "checkbox" || el.type === "radio") el.checked = Boolean(value);
      else if (el.multiple) for (const option of el.options) option.selected = value.includes(option.value);
      else el.value = value;
      el.dispatchEvent(new Event("change", { bubbles: true }));
    }
  }

  const asOpened = JSON.stringify(fields());
  let timer = null;

  let held = false; // while the offer is open, or a restore runs, the saved draft is not written over

  function keep() {
    if (held) return;
    const now = fields();
    if (JSON.stringify(now) === asOpened) {
      localStorage.removeItem(key);
      return;
    }
    localStorage.setItem(
      key,
      JSON.stringify({ at: Date.now(), revision: revision ? revision.value : "", values: now }),
    );
  }

  function offer(saved) {
    const box = document.createElement("div");
    box.className = "unsaved-offer";
    box.setAttribute("role", "alert");
    // 24-hour time, as the admin writes every other time
    const when = new Date(saved.at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    const text = document.createElement("p");
    text.textContent = `Restore unsaved changes? You typed them on this page at ${when} and did not save them.`;
    const restore = document.createElement("button");
    restore.type = "button";
    restore.className = "button default";
    restore.textContent = "Restore unsaved changes";
    const drop = document.createElement("button");
    drop.type = "button";
    drop.className = "button";
    drop.textContent = "Discard them";
    restore.addEventListener("click", () => {
      try {
        fill(saved.values);
      } catch (error) {
        // the draft stays kept, and the offer with it, saying so: nothing typed is lost
        text.textContent = `These changes could not be restored (${error.message}); they are still kept in this browser.`;
        return;
      }
      if (revision && saved.revision) revision.value = saved.revision;
      box.remove();
      held = false;
      keep();
    });
    drop.addEventListener("click", () => {
      localStorage.removeItem(key);
      box.remove();
      held = false;
    });
    box.append(text, restore, drop);
    form.before(box);
  }

  let saved = null;
  try {
    saved = JSON.parse(localStorage.getItem(key) || "null");
  } catch (error) {
    localStorage.removeItem(key);
  }
  if (saved && saved.values && JSON.stringify(saved.values) !== asOpened) {
    held = true;
    offer(saved);
  }

  form.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(keep, 400);
  });
  form.addEventListener("change", () => {
    clearTimeout(timer);
    timer = setTimeout(keep, 400);
  });
  form.addEventListener("submit", () => {
    clearTimeout(timer);
    localStorage.removeItem(key); // a refused save shows the typed input again, from the server
  });

  const presence = script.dataset.presenceUrl;
  if (!presence) return;
  const region = document.createElement("div");
  region.className = "presence";
  region.setAttribute("aria-live", "polite");
  form.before(region);

  function body(extra) {
    const data = new FormData();
    data.append("csrfmiddlewaretoken", token);
    for (const [name, value] of Object.entries(extra || {})) data.append(name, value);
    return data;
  }

  function beat() {
    fetch(presence, { method: "POST", body: body(), credentials: "same-origin" })
      .then((response) => (response.ok ? response.json() : null))
      .then((answer) => {
        if (!answer) return;
        // The messages the page was rendered with say who was here then: now this says it.
        for (const item of document.querySelectorAll(".messagelist li.info")) {
          if (item.textContent.startsWith("Also here:")) item.remove();
        }
        region.replaceChildren(
          ...answer.others.map((line) => Object.assign(document.createElement("p"), { textContent: line })),
        );
      })
      .catch(() => {});
  }

  setInterval(beat, Number(script.dataset.heartbeatSeconds || 30) * 1000);
  window.addEventListener("pagehide", () => {
    navigator.sendBeacon(presence, body({ leave: "1" }));
  });
})();
