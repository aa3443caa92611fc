// The table view (/table): /table/live sends the view's HTML and the
// countdown on every change; between two messages the page counts the
// countdown down by itself, put right by each message.  It reconnects after
// the web restarts (the browser's own retry, or a new stream after a
// refusal, waiting longer each time) and after a silent drop of the Wi-Fi
// (no message, not even the keepalive, for data-silent seconds).
(function () {
  "use strict";
  var body = document.body;
  if (!window.EventSource || !window.JSON) {
    return;
  }
  var SILENT_MS = Number(body.getAttribute("data-silent") || 40) * 1000;
  var FIRST_WAIT = 1000;
  var LONGEST_WAIT = 30000;
  var wait = FIRST_WAIT;
  var source = null;
  var silence = null;
  var tick = null;
  // The countdown: seconds left at `since` (performance.now()), running or not.
  var clock = null;

  function text(seconds) {
    // As the box shows it: whole seconds rounded up, M:SS.
    var whole = Math.max(0, Math.ceil(seconds - 1e-6));
    var s = whole % 60;
    return Math.floor(whole / 60) + ":" + (s < 10 ? "0" : "") + s;
  }

  function left() {
    if (!clock.running) {
      return clock.left;
    }
    return Math.max(0, clock.left - (performance.now() - clock.since) / 1000);
  }

  function show() {
    clearTimeout(tick);
    var place = document.getElementById("countdown");
    var box = place && place.closest(".clock");
    if (!place) {
      return;
    }
    if (!clock) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    var now = left();
    place.textContent = text(now);
    place.setAttribute("data-running", String(clock.running && now > 0));
    if (clock.running && now > 0) {
      // Next when the whole seconds shown change.
      var due = (now - (Math.ceil(now - 1e-6) - 1)) * 1000;
      tick = setTimeout(show, Math.max(20, due + 5));
    }
  }

  function offline(on) {
    document.querySelectorAll(".offline").forEach(function (note) { note.hidden = !on; });
  }

  function heard() {
    clearTimeout(silence);
    silence = setTimeout(function () {
      // Nothing, not even the keepalive: the Wi-Fi dropped without a word.
      offline(true);
      listen();
    }, SILENT_MS);
  }

  function take(message) {
    var data;
    try {
      data = JSON.parse(message.data);
    } catch (e) {
      return;
    }
    var main = document.querySelector("main");
    main.innerHTML = data.html;
    document.title = data.title;
    document.documentElement.lang = data.lang;
    clock = data.countdown ? {left: data.countdown.left, running: data.countdown.running,
                              since: performance.now()} : null;
    show();
  }

  function listen() {
    if (source) {
      source.close();
    }
    source = new EventSource("/table/live");
    source.onopen = function () {
      wait = FIRST_WAIT;
      offline(false);
      heard();
    };
    source.onmessage = function (message) {
      heard();
      take(message);
    };
    source.addEventListener("alive", heard);
    source.onerror = function () {
      offline(true);
      if (source.readyState === EventSource.CLOSED) {
        // Refused (a restarting or crowded web): try again, with jitter.
        clearTimeout(silence);
        setTimeout(listen, wait / 2 + Math.random() * wait);
        wait = Math.min(wait * 2, LONGEST_WAIT);
      }
    };
  }

  listen();
})();
