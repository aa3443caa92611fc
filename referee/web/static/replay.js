// The replay (/g/N/step/K): the arrow keys step back and forward, Home and
// End go to the start and the end, by following the page's own links (each
// names its key in data-key), so the page works the same without it.
(function () {
  "use strict";
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) {
      return;
    }
    var target = event.target;
    if (target && target.closest && target.closest("input, select, textarea, summary")) {
      return;   // keys typed into a field or the round list are theirs
    }
    var link = document.querySelector("a.step-to[data-key=\"" + event.key + "\"]");
    if (link) {
      event.preventDefault();
      window.location.href = link.href;
    }
  });
}());
