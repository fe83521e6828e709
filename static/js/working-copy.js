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

  function fields() {
    const values = {};
    for (const el of form.elements) {
      if (!el.name || SKIP.has(el.name) || el.name.includes("__prefix__")) continue;
      if (["file", "submit", "button", "reset"].includes(el.type)) continue;
      if (el.type === "checkbox") values[el.name] = el.checked;
      else if (el.type === "radio") { if (el.checked) values[el.name] = el.value; }
      else if (el.multiple) values[el.name] = Array.from(el.selectedOptions, (o) => o.value);
      else values[el.name] = el.value;
    }
    return values;
  }

  function fill(values) {
    for (const [name, value] of Object.entries(values)) {
      const el = form.elements.namedItem(name);
      if (!el) continue; // a row added before the reload is not on the page any more
      if (el instanceof RadioNodeList) {
        for (const radio of el) radio.checked = radio.value === value;
      } else if (el.type === "checkbox") {
        el.checked = Boolean(value);
      } else if (el.multiple) {
        for (const option of el.options) option.selected = value.includes(option.value);
      } else {
        el.value = value;
      }
      el.dispatchEvent(new Event("change", { bubbles: true }));
    }
  }

  const asOpened = JSON.stringify(fields());
  let timer = null;

  function keep() {
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
    const when = new Date(saved.at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
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
      fill(saved.values);
      if (revision && saved.revision) revision.value = saved.revision;
      box.remove();
      keep();
    });
    drop.addEventListener("click", () => {
      localStorage.removeItem(key);
      box.remove();
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
  if (saved && saved.values && JSON.stringify(saved.values) !== asOpened) offer(saved);

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
