// mahjong-referee: a hand in play followed live (the table page, the replay viewer at its latest
// moment). Progressive enhancement: without it a reload shows the latest. The events the server
// sends carry no tile, only that the hand moved; the page is read again as its reader may see it.
(function () {
  "use strict";
  var first = document.querySelector("[data-live-hand]");
  if (!first || !window.EventSource || !window.fetch || !window.DOMParser) return;
  var hand = first.getAttribute("data-live-hand");
  var source = new EventSource("/hands/" + encodeURIComponent(hand) + "/live");
  var reading = false, latest = 0;
  source.addEventListener("play", function (m) {
    latest = Math.max(latest, JSON.parse(m.data).version);
    catchUp();
  });
  // Reads the page again while the hand has moved on past what it shows (an announcement that
  // came during a read is not lost: the newest version is kept).
  function catchUp() {
    var el = document.querySelector("[data-live-hand]");
    if (!el) { source.close(); return; }
    var moved = { version: latest };
    var seen = el.hasAttribute("data-version") ? Number(el.getAttribute("data-version")) : -1;
    if (reading || moved.version <= seen) return;
    reading = true;
    var read = false;
    var url = el.getAttribute("data-live-url") || window.location.pathname;
    fetch(url, { credentials: "same-origin" }).then(function (r) {
      return r.text().then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var main = doc.querySelector("main");
        if (!r.ok || !main) return;
        document.querySelector("main").replaceWith(main);
        document.title = doc.title;
        read = true;
        var now = main.querySelector("[data-live-hand]");
        if (now && !now.hasAttribute("data-version")) now.setAttribute("data-version", String(moved.version));
        if (!now) source.close();
      });
    // A failed read waits for the next announcement rather than asking again at once.
    }).catch(function () {}).then(function () { reading = false; if (read) catchUp(); });
  }
})();
