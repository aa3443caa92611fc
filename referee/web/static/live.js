// Live pages (<body data-live>): /live sends a number whenever something
// changes at the table; the page then fetches itself again and swaps in the
// new <main>.  Without JavaScript the page refreshes itself (<noscript>).
(function () {
  "use strict";
  var body = document.body;
  if (!body.hasAttribute("data-live") || !window.EventSource || !window.fetch) {
    return;
  }
  var badges = document.querySelectorAll(".live");
  var busy = false;
  var again = false;

  function shown(on) {
    badges.forEach(function (badge) { badge.hidden = !on; });
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
          document.querySelector("main").replaceWith(document.adoptNode(fresh));
          document.title = page.title;
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

  var source = new EventSource("/live");
  source.onopen = function () { shown(true); };
  source.onerror = function () { shown(false); };
  source.onmessage = function (message) {
    if (message.data !== body.getAttribute("data-version")) {
      refresh();
    }
  };
})();
