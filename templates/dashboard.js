// mahjong-referee: the director's dashboard follows the ledger. The server says only that
// something was recorded; the page is read again as its reader may see it. Without this
// script the page refreshes itself every thirty seconds.
(function () {
  "use strict";
  var room = document.querySelector("[data-dashboard]");
  if (!room || !window.EventSource || !window.fetch || !window.DOMParser) return;
  var source = new EventSource(room.getAttribute("data-events"));
  var reading = false, again = false;
  source.addEventListener("written", function () { read(); });
  // Connected again after a drop: what was written meanwhile was never announced.
  var connected = false;
  source.addEventListener("open", function () { if (connected) read(); connected = true; });
  function read() {
    if (reading) { again = true; return; }
    reading = true;
    fetch(window.location.pathname, { credentials: "same-origin" }).then(function (r) {
      return r.text().then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.querySelector("[data-dashboard]");
        var now = document.querySelector("[data-dashboard]");
        if (r.ok && fresh && now) {
          now.replaceWith(fresh);
          document.dispatchEvent(new Event("mjr:clock"));
        }
      });
    }).catch(function () {}).then(function () {
      reading = false;
      if (again) { again = false; read(); }
    });
  }
})();
