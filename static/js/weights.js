/*
 * Reader-weighted rankings, live (vendors/weights.py): as a weight changes, fetch the
 * ranking the form would load and swap in its parts marked data-live-part, so the order
 * follows the weights while the reader stays in the field. The address bar takes the
 * weighted address, to share. Without JavaScript the form's button does the same with a
 * page load; the server orders and pages the vendors either way.
 */
(function () {
  "use strict";
  var form = document.querySelector("form[data-live-weights]");
  if (!form || !window.fetch || !window.DOMParser || !window.URLSearchParams) {
    return;
  }
  var timer = null;
  var latest = 0;

  function address() {
    return form.getAttribute("action") + "?" + new URLSearchParams(new FormData(form)).toString();
  }

  function refresh() {
    var url = address();
    var ticket = ++latest;
    fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (response) {
        if (!response.ok) {
          throw new Error("HTTP " + response.status);
        }
        return response.text();
      })
      .then(function (html) {
        if (ticket !== latest) {
          return; // a newer change is on its way
        }
        var fresh = new DOMParser().parseFromString(html, "text/html");
        document.querySelectorAll("[data-live-part]").forEach(function (part) {
          var next = fresh.getElementById(part.id);
          if (next) {
            part.replaceChildren.apply(part, Array.prototype.slice.call(next.childNodes));
          }
        });
        document.title = fresh.title;
        window.history.replaceState(null, "", url);
      })
      .catch(function () {
        /* The button still submits the form. */
      });
  }

  form.addEventListener("input", function (event) {
    var field = event.target;
    if (!field.matches("input[type=number]") || !field.checkValidity()) {
      return; // an out-of-range value waits for the button, which explains it
    }
    window.clearTimeout(timer);
    timer = window.setTimeout(refresh, 350);
  });
})();
