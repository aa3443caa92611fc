// The names page (form.names): what is typed shows on the box's screens
// while it is typed.  A moment after the last keystroke the page posts its
// fields to <page>/preview; the box shows the names unsaved and answers, by
// field, why it left a name out (a letter the panels cannot draw, too long,
// a second one of the same name), which is said under that field, and by
// field a name that looks just like another player's, said there too as a
// warning.  Saving stays the form's own submit, the only way without
// JavaScript.
(function () {
  "use strict";
  var form = document.querySelector("form.names");
  if (!form || !window.fetch || !window.URLSearchParams || !window.FormData) {
    return;
  }
  var PAUSE = 300;   // ms after the last keystroke
  var address = form.getAttribute("action").replace(/\/$/, "") + "/preview";
  var timer = null;
  var busy = false;
  var again = false;

  function mark(refused, warned) {
    form.querySelectorAll(".seats input[name]").forEach(function (field) {
      var text = refused[field.name] || warned[field.name] || "";
      var why = document.getElementById(field.id + "-why");
      if (!why && text) {
        why = document.createElement("span");
        why.className = "why";
        why.id = field.id + "-why";
        why.setAttribute("aria-live", "polite");
        field.parentNode.appendChild(why);
      }
      if (why) {
        why.textContent = text;
        why.hidden = !text;
      }
      if (refused[field.name]) {
        field.setAttribute("aria-invalid", "true");
      } else {
        field.removeAttribute("aria-invalid");
      }
      if (text) {
        field.setAttribute("aria-describedby", why.id);
      } else {
        field.removeAttribute("aria-describedby");
      }
    });
  }

  // One preview in flight at a time; typing meanwhile sends once more after.
  function send() {
    timer = null;
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    fetch(address, {method: "POST", body: new URLSearchParams(new FormData(form)), credentials: "same-origin"})
      .then(function (response) {
        if (!response.ok) {
          throw new Error(response.status);
        }
        return response.json();
      })
      .then(function (answer) { mark(answer.refused || {}, answer.warned || {}); })
      .catch(function () { /* the setup is gone or the box is away: saving says so */ })
      .then(function () {
        busy = false;
        if (again) {
          again = false;
          send();
        }
      });
  }

  form.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(send, PAUSE);
  });
  form.addEventListener("submit", function () {
    clearTimeout(timer);
  });
})();
