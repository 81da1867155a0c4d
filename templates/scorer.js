// mahjong-referee: the scorer's page. Progressive enhancement: every button is a form post and
// works without this script. With it, acts post in the background and the page is swapped in
// place; another scorer's entries arrive live; a keyboard drives it: tile keys as in the
// notation (5p, 9s, E, R …) discard or pick that tile, c p k m claim, g grants, x lays down,
// d draws, l draws the loose tile, z strikes the scorer's own last entry.
(function () {
  "use strict";
  if (!window.fetch || !window.URLSearchParams || !window.DOMParser) return;
  var busy = false;
  var typed = "";
  var source = null;

  function root() { return document.getElementById("scorer"); }

  function swap(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var fresh = doc.getElementById("scorer");
    if (!fresh) {
      // An error page: shown as it is.
      document.body.innerHTML = doc.body.innerHTML;
      return;
    }
    root().replaceWith(fresh);
    document.title = doc.title;
    follow();
    var refused = document.getElementById("refused");
    if (refused) refused.scrollIntoView({ block: "center" });
  }

  function post(form, submitter) {
    if (busy) return;
    busy = true;
    var data = new URLSearchParams();
    new FormData(form).forEach(function (v, k) { data.append(k, v); });
    if (submitter && submitter.name) data.append(submitter.name, submitter.value);
    root().setAttribute("aria-busy", "true");
    fetch(form.action, {
      method: "POST", body: data, credentials: "same-origin",
      // Answered with the page as it now stands (one request, not a post and a redirect).
      headers: { "content-type": "application/x-www-form-urlencoded", "x-scorer-page": "1" }
    }).then(function (r) {
      return r.text().then(function (html) {
        // Another page (the hands to lay down, the hand's page once it is scored): go there.
        if (r.redirected && !/\/play$/.test(new URL(r.url).pathname)) { window.location = r.url; return; }
        swap(html);
      });
    }).catch(function () {
      // Lost connection: post the form the plain way, with the button tapped (the version
      // makes a retry safe: an act already recorded is answered, not recorded again).
      if (submitter && submitter.name) {
        var tapped = document.createElement("input");
        tapped.type = "hidden"; tapped.name = submitter.name; tapped.value = submitter.value;
        form.appendChild(tapped);
      }
      form.submit();
    }).then(function () { busy = false; var el = root(); if (el) el.removeAttribute("aria-busy"); catchUp(); });
  }

  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!root() || !root().contains(form)) return;
    e.preventDefault();
    post(form, e.submitter);
  });

  function press(button) { if (button && !busy) { button.click(); return true; } return false; }

  document.addEventListener("keydown", function (e) {
    if (!root() || e.altKey || e.ctrlKey || e.metaKey || /INPUT|TEXTAREA|SELECT/.test(e.target.tagName)) return;
    var k = e.key;
    if (/^[1-9]$/.test(k)) { typed = k; return; }
    var tile = null;
    if (typed && /^[mps]$/.test(k)) tile = typed + k;
    else if (/^[ESWNRGP]$/.test(k)) tile = k;
    typed = "";
    if (tile) {
      var pick = root().querySelector('.discard-tiles button[value$=" ' + tile + '"], .picker-tiles button[value="' + tile + '"]');
      if (press(pick)) e.preventDefault();
      return;
    }
    if (press(root().querySelector('button[data-key="' + k + '"]'))) e.preventDefault();
  });

  // Another scorer's entries, live: the page is read again when the hand moves on.
  function follow() {
    var el = root();
    var hand = el && el.getAttribute("data-hand");
    if (source && (!hand || source.hand !== hand)) { source.close(); source = null; latest = 0; }
    if (!hand || source || !window.EventSource) return;
    latest = 0;
    source = new EventSource("/hands/" + encodeURIComponent(hand) + "/live");
    source.hand = hand;
    source.addEventListener("play", function (m) {
      latest = Math.max(latest, JSON.parse(m.data).version);
      catchUp();
    });
  }

  // Reads the page again while the hand has moved on past what it shows (an announcement that
  // came during a post or a read is not lost: the newest version is kept).
  var latest = 0, reading = false;
  function catchUp() {
    var now = root();
    if (busy || reading || !now || !now.getAttribute("data-hand")) return;
    if (latest <= Number(now.getAttribute("data-version"))) return;
    reading = true;
    var read = false;
    fetch(window.location.pathname, { credentials: "same-origin" })
      .then(function (r) { return r.text(); })
      .then(function (html) { if (!busy) { swap(html); read = true; } })
      .catch(function () {})
      // A failed read waits for the next announcement rather than asking again at once.
      .then(function () { reading = false; if (read) catchUp(); });
  }
  follow();
})();
