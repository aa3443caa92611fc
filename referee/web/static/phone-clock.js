// Only while the box's clock is not set by the network do pages carry this
// script: it posts the phone's own clock (milliseconds since 1970) once, as
// the page loads, and the box takes the first time it believes to date
// tonight's games (referee/web/phone_clock.py).  Pages work the same
// without it.
(function () {
  "use strict";
  if (!window.fetch) {
    return;
  }
  fetch("/clock", {method: "POST", body: String(Date.now()), credentials: "omit", keepalive: true,
                   headers: {"Content-Type": "text/plain"}})
    .catch(function () {});
})();
