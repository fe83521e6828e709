/*
 * A wide table says that it scrolls: each scroll area (.table-scroll) names its hint with
 * aria-describedby, and the hint shows exactly when the table is wider than its frame, at
 * any screen width (a reader-weighted ranking can overflow on a laptop too). Without
 * JavaScript the stylesheet shows the hints on narrow screens, where tables may overflow.
 */
(function () {
  "use strict";
  function measure() {
    document.querySelectorAll(".table-scroll[aria-describedby]").forEach(function (area) {
      var hint = document.getElementById(area.getAttribute("aria-describedby"));
      if (!hint) {
        return;
      }
      var overflows = area.scrollWidth > area.clientWidth + 1;
      hint.classList.toggle("is-needed", overflows);
      hint.classList.toggle("is-not-needed", !overflows);
    });
  }
  var pending = false;
  function soon() {
    if (!pending) {
      pending = true;
      window.requestAnimationFrame(function () {
        pending = false;
        measure();
      });
    }
  }
  measure();
  window.addEventListener("resize", soon);
  window.addEventListener("load", soon);
  // The live weights swap the table in place (weights.js): measure the new one.
  if (window.MutationObserver) {
    new MutationObserver(soon).observe(document.querySelector("main") || document.body, {
      childList: true,
      subtree: true,
    });
  }
})();
