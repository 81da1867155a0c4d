// mahjong-referee: a session's clock counts down by itself, and times are shown in the
// viewer's own time. The server's words stand without this script.
(function () {
  "use strict";
  function span(minutes) {
    var m = Math.abs(minutes), h = Math.floor(m / 60), r = m % 60;
    if (h === 0) return r + " min";
    if (r === 0) return h + " h";
    return h + " h " + (r < 10 ? "0" : "") + r + " min";
  }
  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-clock]").forEach(function (el) {
      var opened = Date.parse(el.getAttribute("data-opened"));
      if (isNaN(opened)) return;
      // Whole minutes played, as the server counts them; what is left is the length less that.
      var elapsed = Math.floor((now - opened) / 60000);
      var played = span(elapsed);
      var minutes = Number(el.getAttribute("data-minutes"));
      if (!el.hasAttribute("data-minutes") || isNaN(minutes)) { el.textContent = played + " played · no time set"; return; }
      var left = minutes - elapsed;
      if (left > 0) el.textContent = played + " played · " + span(left) + " left";
      else if (left === 0) el.textContent = "time is up (" + played + " played)";
      else el.textContent = "over by " + span(left) + " (" + played + " played)";
    });
    document.querySelectorAll("time[data-local-time]").forEach(function (el) {
      var t = new Date(el.getAttribute("datetime"));
      if (isNaN(t.getTime())) return;
      el.textContent = t.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
      el.setAttribute("title", el.getAttribute("datetime"));
    });
  }
  tick();
  setInterval(tick, 1000);
  document.addEventListener("mjr:clock", tick);
})();
