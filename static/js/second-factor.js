/*
 * Enrolling a passkey (templates/admin/second_factor/enrol.html): django-otp-webauthn's script
 * registers it and marks the session verified; then this goes on to the recovery codes.
 */
(function () {
  "use strict";
  var section = document.querySelector("[data-passkey-done-url]");
  var done = section && section.getAttribute("data-passkey-done-url");
  if (!done) {
    return;
  }
  document.addEventListener("otp_webauthn.register_complete", function () {
    window.location.assign(done);
  });
})();
