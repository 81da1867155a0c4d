// mahjong-referee: a hand in play followed live (the table page, the replay viewer at its latest
// moment). Progressive enhancement: without it a reload shows the latest. The events the server
// sends carry no tile, only that the hand moved; the page is read again as its reader may see it.
(function () {
  "use strict";
  var first = document.querySelector("[data-live-hand]");
  if (!first || !window.EventSource || !window.fetch || !window.DOMParser) return;
  var hand = first.getAttribute("data-live-hand");
  var source = new EventSource("/hands/" + encodeURIComponent(hand) + "/live");
  var reading = false;
  source.addEventListener("play", function (m) {
    var el = document.querySelector("[data-live-hand]");
    if (!el) { source.close(); return; }
    var moved = JSON.parse(m.data);
    var seen = el.hasAttribute("data-version") ? Number(el.getAttribute("data-version")) : -1;
    if (reading || el.getAttribute("data-follow") === "no" || moved.version <= seen) return;
    reading = true;
    var url = el.getAttribute("data-live-url") || window.location.pathname;
    fetch(url, { credentials: "same-origin" }).then(function (r) {
      return r.text().then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var main = doc.querySelector("main");
        if (!r.ok || !main) return;
        document.querySelector("main").replaceWith(main);
        document.title = doc.title;
        var now = main.querySelector("[data-live-hand]");
        if (now && !now.hasAttribute("data-version")) now.setAttribute("data-version", String(moved.version));
        if (!now) source.close();
      });
    }).catch(function () {}).then(function () { reading = false; });
  });
})();
