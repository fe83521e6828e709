"use strict";
// Every admin page (templates/admin/base_site.html): names for what Django's autocompletes
// (select2 4.0.13) draw without one, and focus on a refused save's error summary.
//
// select2 hides the <select> (which has its <label>) and draws a combobox, a search field and a
// list of results that name nothing. Each of them is named here by the <select>'s own label,
// after Django's admin/js/autocomplete.js has drawn them: on the page (jQuery's ready, which
// runs after autocomplete.js's own) and in a row added to an inline (Django's formset:added).
(function () {
  function labelOf(select) {
    const label = select.id ? document.querySelector(`label[for="${CSS.escape(select.id)}"]`) : null;
    if (!label) return null;
    if (!label.id) label.id = `${select.id}-label`;
    return label;
  }

  function name(element, label) {
    element.setAttribute("aria-labelledby", label.id);
    element.removeAttribute("aria-label");
  }

  function nameAutocomplete(select) {
    const label = labelOf(select);
    const widget = select.nextElementSibling;
    if (!label || !widget || !widget.classList.contains("select2")) return;
    const combobox = widget.querySelector(".select2-selection[role=combobox]");
    if (combobox) name(combobox, label);
    // A single choice is shown in a span select2 calls a read-only textbox: it is the
    // combobox's value, read with it, and needs no role of its own.
    const shown = widget.querySelector(".select2-selection--single .select2-selection__rendered");
    if (shown) {
      shown.removeAttribute("role");
      shown.removeAttribute("aria-readonly");
    }
    const search = widget.querySelector(".select2-search__field");
    if (search) name(search, label);
  }

  function nameAll(root) {
    root.querySelectorAll("select.admin-autocomplete").forEach(nameAutocomplete);
  }

  // A link to a row further down (the staleness queue's "#fact-12") is followed by the browser
  // as soon as the page is parsed; the autocompletes drawn after that are shorter than the lists
  // they replace, so the page shrinks above the row and it slides up under the sticky menu. Once
  // they are drawn the row is brought back, unless the editor has moved on meanwhile.
  const target = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
  let moved = false;
  if (target) {
    ["keydown", "pointerdown", "wheel", "touchstart"].forEach((kind) =>
      window.addEventListener(kind, () => { moved = true; }, { once: true, passive: true }),
    );
  }
  function keepTargetInView() {
    if (target && !moved) target.scrollIntoView({ block: "start" });
  }

  const $ = window.django && window.django.jQuery;
  if ($ && $.fn.select2) {
    // select2's "remove all" cross is a <span> it puts inside the <ul> of chosen items, where
    // only <li> may be: it goes before the list instead (its handler listens on the whole box).
    const AllowClear = $.fn.select2.amd.require("select2/selection/allowClear");
    const update = AllowClear.prototype.update;
    AllowClear.prototype.update = function (decorated, data) {
      this.$selection.children(".select2-selection__clear").remove();
      update.call(this, decorated, data);
      this.$selection.prepend(this.$selection.find("ul.select2-selection__rendered > .select2-selection__clear"));
    };
    $(() => {
      nameAll(document);
      keepTargetInView();
    });
    document.addEventListener("formset:added", (event) => nameAll(event.target));
    // The search field and the results of an open list are drawn when it opens.
    $(document).on("select2:open", "select.admin-autocomplete", (event) => {
      const select = event.target;
      const label = labelOf(select);
      const dropdown = $(select).data("select2") && $(select).data("select2").$dropdown[0];
      if (!label || !dropdown) return;
      dropdown.querySelectorAll(".select2-search__field, .select2-results__options").forEach((el) => name(el, label));
      // An expanded combobox names the list it controls (ARIA 1.2); select2 says only aria-owns.
      const widget = select.nextElementSibling;
      const results = dropdown.querySelector(".select2-results__options[id]");
      if (widget && results) {
        widget.querySelectorAll("[role=combobox], .select2-search__field").forEach((el) => {
          el.setAttribute("aria-controls", results.id);
        });
      }
    });
    $(document).on("select2:select select2:unselect", "select.admin-autocomplete", (event) => {
      nameAutocomplete(event.target);
    });
  }

  // The section menu of a long change page says which section is in view (aria-current), as
  // it is scrolled or a link followed.
  const menu = document.querySelector(".section-menu");
  if (menu && "IntersectionObserver" in window) {
    const links = new Map();
    menu.querySelectorAll("a[href^='#']").forEach((link) => {
      const section = document.getElementById(decodeURIComponent(link.hash.slice(1)));
      if (section) links.set(section, link);
    });
    const visible = new Set();
    const mark = (link) => {
      links.forEach((other) => other.removeAttribute("aria-current"));
      if (link) link.setAttribute("aria-current", "location");
    };
    const observer = new IntersectionObserver((entries) => {
      entries.forEach((entry) => (entry.isIntersecting ? visible.add(entry.target) : visible.delete(entry.target)));
      // Between sections (a notice above the first, a tall inline), the last one marked stays.
      const first = Array.from(links.keys()).find((section) => visible.has(section));
      if (first) mark(links.get(first));
    }, { rootMargin: "-20% 0px -60% 0px" });
    links.forEach((link, section) => observer.observe(section));
    menu.addEventListener("click", (event) => {
      const link = event.target.closest("a[href^='#']");
      if (link) mark(link);
    });
    const first = links.keys().next();
    if (!first.done) mark(links.get(first.value));
  }

  // What the server says after a save (merged with someone's save, who else is here, what a
  // publish did) is announced by a screen reader, not only shown: the page's messages are
  // copied into a live region once the page has loaded, since a region filled before the
  // reader looks at it is not read out.
  const messages = document.querySelectorAll(".messagelist li");
  if (messages.length) {
    const region = document.createElement("div");
    region.className = "visually-hidden admin-announcer";
    region.setAttribute("role", "status");
    document.body.append(region);
    setTimeout(() => {
      region.replaceChildren(
        ...Array.from(messages, (item) => Object.assign(document.createElement("p"), { textContent: item.textContent.trim() })),
      );
    }, 400);
  }

  // A table wider than a narrow screen scrolls in its own box (admin-a11y.css), and the box says
  // so: a named region the keyboard can reach and scroll (WCAG 1.4.10's exception for tables).
  const SCROLLS = " (the table scrolls sideways on a narrow screen)";
  function nameScrollingTables() {
    document.querySelectorAll("#changelist .results, .my-work, .review-queue").forEach((box) => {
      const wide = box.scrollWidth > box.clientWidth + 1;
      if (wide && !box.hasAttribute("role")) {
        const caption = box.querySelector("caption, h2");
        box.setAttribute("role", "region");
        box.setAttribute("aria-label", `${caption ? caption.textContent.trim() : "Results"}${SCROLLS}`);
        box.tabIndex = 0;
        box.dataset.scrollsNamed = "1";
      } else if (!wide && box.dataset.scrollsNamed) {
        ["role", "aria-label", "tabindex", "data-scrolls-named"].forEach((name) => box.removeAttribute(name));
      }
    });
  }
  nameScrollingTables();
  let resizing = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizing);
    resizing = setTimeout(nameScrollingTables, 150);
  });

  // A refused save: the summary of what to correct takes focus, so it is read first and Tab
  // goes on to its links (templates/admin/editorial/sectioned_change_form.html).
  function focusSummary() {
    const summary = document.querySelector(".error-summary[tabindex]");
    if (summary) summary.focus();
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", focusSummary);
  } else {
    focusSummary();
  }
})();
