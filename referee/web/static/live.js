// Live pages (<body data-live>): /live sends a number whenever something
// changes at the table; the page then fetches itself again and swaps in the
// new <header>, <main> and <footer> (a language chosen at the table changes
// all three).  Without JavaScript the page refreshes itself (<noscript>).
(function () {
  "use strict";
  var body = document.body;
  if (!body.hasAttribute("data-live") || !window.EventSource || !window.fetch) {
    return;
  }
  var connected = false;
  var busy = false;
  var again = false;

  function shown(on) {
    connected = on;
    document.querySelectorAll(".live").forEach(function (badge) { badge.hidden = !on; });
  }

  // A team page's form may be half typed when the table moves on: what was
  // typed goes into the fresh page's field of the same name, if it is still
  // there, and so does the cursor.
  function keepTyping(old, fresh) {
    var focus = null;
    old.querySelectorAll("input[type=text][name], input:not([type])[name]").forEach(function (field) {
      var twin = fresh.querySelector("input[name=\"" + CSS.escape(field.name) + "\"]");
      if (!twin) {
        return;
      }
      if (field.value !== field.defaultValue) {
        twin.value = field.value;
      }
      if (field === document.activeElement) {
        focus = {field: twin, start: field.selectionStart, end: field.selectionEnd};
      }
    });
    return focus;
  }

  function refresh() {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    fetch(location.href, {cache: "no-cache", credentials: "same-origin"})
      .then(function (response) { return response.text(); })
      .then(function (html) {
        var page = new DOMParser().parseFromString(html, "text/html");
        var fresh = page.querySelector("main");
        if (fresh) {
          var focus = keepTyping(document.querySelector("main"), fresh);
          ["header", "main", "footer"].forEach(function (part) {
            var old = document.querySelector(part);
            var next = page.querySelector(part);
            if (old && next) {
              old.replaceWith(document.adoptNode(next));
            }
          });
          shown(connected);
          if (focus) {
            focus.field.focus();
            focus.field.setSelectionRange(focus.start, focus.end);
          }
          document.title = page.title;
          document.documentElement.lang = page.documentElement.lang;
          body.setAttribute("data-version", page.body.getAttribute("data-version"));
        }
      })
      .catch(function () { /* the next message tries again */ })
      .then(function () {
        busy = false;
        if (again) {
          again = false;
          refresh();
        }
      });
  }

  // The browser reconnects by itself after a dropped stream, but not after
  // an answer other than a stream (a 503 from a crowded or restarting web
  // page): then this script tries again, waiting twice as long each time
  // (with some jitter, so a crowd does not come back at once), up to a
  // minute.  Without JavaScript the page refreshes itself (<noscript>).
  var FIRST_WAIT = 1000;
  var LONGEST_WAIT = 60000;
  var wait = FIRST_WAIT;

  function listen() {
    var source = new EventSource("/live");
    source.onopen = function () {
      wait = FIRST_WAIT;
      shown(true);
    };
    source.onerror = function () {
      shown(false);
      if (source.readyState === EventSource.CLOSED) {
        source.close();
        setTimeout(listen, wait / 2 + Math.random() * wait);
        wait = Math.min(wait * 2, LONGEST_WAIT);
      }
    };
    source.onmessage = function (message) {
      if (message.data !== body.getAttribute("data-version")) {
        refresh();
      }
    };
  }

  listen();
})();
