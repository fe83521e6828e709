"use strict";
// “Add a new source” beside every sources autocomplete of a change page
// (templates/admin/claims/source_dialog.html). The dialog posts to the Source admin's
// quick-add endpoint and adds the new source, or the one its URL already is, to that row,
// with the quote and support typed for the row's citation of it.
(function () {
  const dialog = document.getElementById("source-dialog");
  if (!dialog || typeof dialog.showModal !== "function") {
    return;
  }
  const form = dialog.querySelector("form");
  const urlInput = form.elements.url;
  const exists = dialog.querySelector(".source-dialog-exists");
  const existsTitle = dialog.querySelector(".source-dialog-exists-title");
  const problem = dialog.querySelector(".source-dialog-error");
  let row = null; // the select the dialog adds to
  let opener = null; // the button that opened it: focus goes back there when it closes
  let found = null; // the source the URL already is
  let lookup = 0;

  function today() {
    const now = new Date();
    const pad = (n) => String(n).padStart(2, "0");
    return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  }

  const SUPPORTS = [
    ["full", "Full support"],
    ["partial", "Partial support"],
    ["contradicts", "Contradicts"],
  ];

  // The row's evidence (claims/admin/evidence.py): one group per cited source, its support
  // and its quote, beside the sources' select. A newly cited source gets a group here; the
  // page draws the saved ones itself.
  function evidenceBox(select) {
    const name = select.name.replace(/sources$/, "evidence");
    let box = document.querySelector(`.evidence-widget[data-evidence-name="${name}"]`);
    if (!box) {
      // A row added on the page: Django renumbers its inputs' names, not this attribute.
      const row = select.closest("tr, .inline-related");
      box = row ? row.querySelector(".evidence-widget") : null;
      if (box) {
        box.dataset.evidenceName = name;
      }
    }
    return box;
  }

  function addEvidence(select, source) {
    const box = evidenceBox(select);
    if (!box) {
      return;
    }
    let group = box.querySelector(`.evidence-group[data-source="${source.id}"]`);
    if (!group) {
      const name = box.dataset.evidenceName;
      group = document.createElement("fieldset");
      group.className = "evidence-group";
      group.dataset.source = source.id;
      const legend = document.createElement("legend");
      legend.textContent = source.text;
      const id = document.createElement("input");
      id.type = "hidden";
      id.name = `${name}-source`;
      id.value = source.id;
      const supportLabel = document.createElement("label");
      const support = document.createElement("select");
      support.name = `${name}-support`;
      SUPPORTS.forEach(([value, text]) => support.append(new Option(text, value)));
      supportLabel.append("Support ", support);
      const quoteLabel = document.createElement("label");
      const quote = document.createElement("textarea");
      quote.name = `${name}-quote`;
      quote.rows = 2;
      quote.cols = 40;
      quote.maxLength = Number(box.dataset.quoteMax) || 500;
      quoteLabel.append("Quote ", quote);
      group.append(legend, id, supportLabel, " ", quoteLabel);
      box.querySelectorAll(".evidence-none").forEach((note) => note.remove());
      box.append(group);
    }
    if (source.support) {
      group.querySelector("select").value = source.support;
    }
    if (source.quote) {
      group.querySelector("textarea").value = source.quote;
    }
  }

  function followSelection(select) {
    Array.from(select.selectedOptions).forEach((option) =>
      addEvidence(select, { id: option.value, text: option.textContent }),
    );
  }

  function pick(select, source) {
    let option = Array.from(select.options).find((o) => o.value === source.id);
    if (!option) {
      option = new Option(source.text, source.id, true, true);
      select.append(option);
    }
    option.selected = true;
    if (window.django && django.jQuery) {
      django.jQuery(select).trigger("change"); // select2 redraws its chosen items
    } else {
      select.dispatchEvent(new Event("change", { bubbles: true }));
    }
    addEvidence(select, source);
  }

  function clearErrors() {
    problem.hidden = true;
    form.querySelectorAll(".errorlist").forEach((list) => {
      list.replaceChildren();
      list.hidden = true;
    });
  }

  function showExisting(source) {
    found = source;
    exists.hidden = !source;
    if (source) {
      existsTitle.textContent = source.text;
      existsTitle.href = source.url;
    }
  }

  function open(select, button) {
    row = select;
    opener = button;
    form.reset();
    clearErrors();
    showExisting(null);
    form.elements.accessed_on.value = today();
    dialog.showModal();
    urlInput.focus();
  }

  async function checkUrl() {
    const value = urlInput.value.trim();
    const asked = ++lookup;
    if (!/^https?:\/\/./i.test(value)) {
      showExisting(null);
      return;
    }
    try {
      const response = await fetch(`${form.action}?url=${encodeURIComponent(value)}`, {
        headers: { Accept: "application/json" },
        credentials: "same-origin",
      });
      const body = response.ok ? await response.json() : null;
      if (asked === lookup && body) {
        showExisting(body.source);
      }
    } catch (error) {
      // Signed out or offline: the lookup is a convenience, and saving will say what went wrong.
    }
  }

  function report(errors) {
    Object.entries(errors).forEach(([name, messages]) => {
      const list = form.querySelector(`.errorlist[data-for="${name}"]`);
      if (!list) {
        problem.textContent = messages.join(" ");
        problem.hidden = false;
        return;
      }
      list.replaceChildren(
        ...messages.map((text) => {
          const item = document.createElement("li");
          item.textContent = text;
          return item;
        }),
      );
      list.hidden = false;
    });
    const first = form.querySelector(".errorlist:not([hidden])");
    if (first) {
      first.parentElement.querySelector("input").focus();
    }
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors();
    let response;
    let body = {};
    try {
      response = await fetch(form.action, {
        method: "POST",
        body: new FormData(form),
        headers: { Accept: "application/json" },
        credentials: "same-origin",
      });
      body = await response.json();
    } catch (error) {
      body = {};
    }
    if (response && response.status === 201) {
      pick(row, body.source);
      dialog.close();
    } else if (body.exists) {
      showExisting(body.exists);
      exists.querySelector("button").focus();
    } else if (body.errors) {
      report(body.errors);
    } else {
      problem.textContent = `The source could not be added${response ? ` (HTTP ${response.status})` : ""}: reload the page and try again.`;
      problem.hidden = false;
    }
  });

  exists.querySelector(".source-dialog-pick").addEventListener("click", () => {
    pick(row, { ...found, quote: form.elements.quote.value.trim(), support: form.elements.support.value });
    dialog.close();
  });
  dialog.querySelector(".source-dialog-cancel").addEventListener("click", () => dialog.close());
  // Focus stays in the dialog while it is open: Tab from its last control goes to its first,
  // Shift+Tab from its first to its last (a modal dialog would otherwise let it reach the
  // browser's own controls). Escape closes it (the browser's cancel), and focus returns to
  // the row's "Add a new source".
  dialog.addEventListener("keydown", (event) => {
    if (event.key !== "Tab") return;
    const controls = Array.from(
      dialog.querySelectorAll("a[href], button, input, select, textarea, [tabindex]:not([tabindex='-1'])"),
    ).filter((el) => !el.disabled && el.getClientRects().length > 0);
    if (!controls.length) return;
    const first = controls[0];
    const last = controls[controls.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  });
  dialog.addEventListener("close", () => {
    if (opener && opener.isConnected) opener.focus();
  });
  form.addEventListener("input", (event) => {
    const list = form.querySelector(`.errorlist[data-for="${event.target.name}"]`);
    if (list) {
      list.hidden = true; // the field changed: its old message no longer applies
    }
  });
  urlInput.addEventListener("input", () => {
    clearTimeout(urlInput.waiting);
    urlInput.waiting = setTimeout(checkUrl, 250);
  });
  urlInput.addEventListener("change", checkUrl);

  function addButtons(root) {
    root.querySelectorAll("select[name='sources'], select[name$='-sources']").forEach((select) => {
      if (select.name.includes("__prefix__") || select.dataset.sourceDialog) {
        return;
      }
      select.dataset.sourceDialog = "1";
      const button = document.createElement("button");
      button.type = "button";
      button.className = "add-source-button";
      button.textContent = "Add a new source";
      button.addEventListener("click", () => open(select, button));
      // The dialog replaces Django's "+" (a second browser window); without this script the
      // "+" stays, a plain link to the add page.
      const wrapper = select.closest(".related-widget-wrapper");
      if (wrapper) {
        wrapper.querySelectorAll(".add-related").forEach((link) => {
          link.hidden = true;
        });
      }
      select.parentElement.append(button);
      // A source picked in the autocomplete gets its evidence group at once (select2 says
      // “change” through jQuery; a plain select through the DOM).
      if (window.django && django.jQuery) {
        django.jQuery(select).on("change", () => followSelection(select));
      } else {
        select.addEventListener("change", () => followSelection(select));
      }
    });
  }

  addButtons(document);
  document.addEventListener("formset:added", (event) => addButtons(event.target));
})();
