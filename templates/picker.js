// mahjong-referee: the tile picker and the live preview of the hand forms (record, correct,
// check). Progressive enhancement: every form works without this script; it only adds
// buttons that type the notation, and asks GET /api/check what the hand is as it is typed.
(function () {
  "use strict";
  var template = document.getElementById("tile-picker");
  if (!template || !window.fetch || !window.URLSearchParams) return;
  var FLAGS = ["last_tile", "kong_upon_kong", "original_call", "heavens_blessing", "earths_blessing"];
  // Each input's pending preview. Assigned before the forms are set up: a form that opens with
  // a hand in it schedules its preview at once.
  var timers = {};

  document.querySelectorAll("form.hand-form").forEach(setUp);

  function setUp(form) {
    var inputs = Array.prototype.slice.call(form.querySelectorAll("input[data-tiles]"));
    if (!inputs.length) return;
    var picker = template.content.firstElementChild.cloneNode(true);
    var target = inputs[0];
    place(target);
    inputs.forEach(function (input) {
      input.addEventListener("focus", function () {
        if (target !== input) { target = input; place(input); }
      });
      input.addEventListener("input", function () { schedule(input); });
      if (input.value.trim()) schedule(input);
    });
    picker.addEventListener("click", function (e) {
      var button = e.target.closest("button");
      if (!button) return;
      var action = button.getAttribute("data-action");
      if (action === "back") target.value = removeLast(target.value);
      else if (action === "clear") target.value = "";
      else target.value = add(target.value, button.getAttribute("data-token"));
      schedule(target);
    });
    // The context (winds, how the tile came, the ruleset) changes every hand's preview.
    form.addEventListener("change", function (e) {
      if (!e.target.hasAttribute("data-tiles")) inputs.forEach(schedule);
    });
    function place(input) {
      var anchor = previewOf(input) || input.closest("label") || input;
      anchor.parentNode.insertBefore(picker, anchor.nextSibling);
      var label = input.closest("label");
      picker.setAttribute("aria-label", "Tap tiles into: " + (label ? label.textContent.trim() : input.name));
    }
  }

  function previewOf(input) {
    return input.form.querySelector('[data-preview-for="' + input.name + '"]');
  }

  // A token joins the hand with a space, except just inside a bracket or after `=`.
  function add(value, token) {
    value = value.replace(/\s+$/, "");
    if (value === "" || token === "]" || token === "}" || /[\[{=]$/.test(value)) return value + token;
    return value + " " + token;
  }

  // Removes the last tile or mark: `123m` becomes `12m`, `5p` goes whole.
  function removeLast(value) {
    value = value.replace(/\s+$/, "");
    var run = /(\d+)([mpsfy])$/.exec(value);
    if (run) {
      var head = value.slice(0, run.index);
      value = run[1].length > 1 ? head + run[1].slice(0, -1) + run[2] : head;
    } else {
      value = value.slice(0, -1);
    }
    return value.replace(/\s+$/, "");
  }

  function schedule(input) {
    clearTimeout(timers[input.name]);
    timers[input.name] = setTimeout(function () { preview(input); }, 250);
  }

  function field(form, name) {
    var el = form.querySelector('[name="' + name + '"]');
    return el ? el.value : "";
  }

  function preview(input) {
    var out = previewOf(input);
    if (!out) return;
    var hand = input.value.trim();
    if (!hand) { out.textContent = ""; return; }
    var form = input.form;
    var q = new URLSearchParams();
    q.set("hand", hand);
    var seat = input.getAttribute("data-wind") || field(form, "seat");
    var prevailing = form.getAttribute("data-prevailing") || field(form, "prevailing");
    var tournament = form.getAttribute("data-tournament") || field(form, "tournament");
    if (seat) q.set("seat", seat);
    if (prevailing) q.set("prevailing", prevailing);
    if (tournament) q.set("tournament", tournament);
    else if (field(form, "ruleset")) q.set("ruleset", field(form, "ruleset"));
    if (field(form, "win_from")) q.set("win_from", field(form, "win_from"));
    FLAGS.forEach(function (name) {
      var box = form.querySelector('input[name="' + name + '"]');
      if (box && box.checked) q.set(name, "on");
    });
    var asked = (out.__asked || 0) + 1;
    out.__asked = asked;
    fetch("/api/check?" + q.toString(), { headers: { accept: "application/json" } })
      .then(function (r) { return r.json(); })
      .then(function (answer) { if (out.__asked === asked) show(out, answer); })
      .catch(function () { out.textContent = "No preview: the server did not answer."; });
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function tile(t) {
    var img = el("img", "tile");
    img.src = t.src || t.image;
    img.alt = t.alt;
    img.title = t.alt + " (" + t.name + ")";
    img.width = 30;
    img.height = 40;
    return img;
  }

  function list(cls, items) {
    var ul = el("ul", cls);
    items.forEach(function (text) { ul.appendChild(el("li", null, text)); });
    return ul;
  }

  function show(out, a) {
    out.textContent = "";
    if (a.error) {
      var problems = (a.error.violations || []).map(function (v) { return v.message; });
      out.appendChild(list("field-error", problems.length ? problems : [a.error.message]));
      return;
    }
    var tiles = el("p", "tiles");
    a.tiles.forEach(function (g) {
      var group = el("span", "group " + g.kind);
      g.tiles.forEach(function (t) { group.appendChild(tile(t)); });
      tiles.appendChild(group);
    });
    out.appendChild(tiles);
    if (a.problems.length) out.appendChild(list("field-error", a.problems));
    if (!a.mahjong) {
      var waits = el("p", "waits");
      if (!a.waits.length) waits.textContent = "Not calling: no tile completes it.";
      else {
        waits.appendChild(document.createTextNode("Waits: "));
        a.waits.forEach(function (w, i) {
          waits.appendChild(tile(w.tile));
          var words = " " + w.tile.alt;
          if (w.shapes.length > 1 || w.shapes[0] !== "standard") words += " (" + w.shapes.join(", ") + ")";
          if (w.if_drawn !== null) words += ", " + w.if_drawn + " if drawn";
          waits.appendChild(document.createTextNode(words + (i + 1 < a.waits.length ? "; " : "")));
        });
      }
      out.appendChild(waits);
    } else if (a.arrangements.length > 1) {
      out.appendChild(el("p", null, a.arrangements.length + " arrangements (Code §105); scored in its best."));
    }
    if (a.sheet) {
      var details = el("details", "sheet-preview");
      var summary = el("summary", null, "Scores " + a.sheet.total + " under " + a.ruleset_title);
      details.appendChild(summary);
      details.appendChild(list("sheet-lines", a.sheet.lines.map(function (l) {
        var value = l.points !== undefined ? l.points + " points" : l.doubles !== undefined ? l.doubles + " doubles" : "limit";
        return l.name + (l.tiles ? " (" + l.tiles + ")" : "") + ": " + value + " — " + l.cite;
      })));
      details.appendChild(el("p", null, "basic points " + a.sheet.basic + ", doubles " + a.sheet.doubles + ", score " + a.sheet.total));
      out.appendChild(details);
    }
  }
})();
