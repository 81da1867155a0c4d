// The replay page: the left and right arrow keys step back and forward through the events
// (progressive enhancement: the links work without it).
document.addEventListener("keydown", function (e) {
  if (e.altKey || e.ctrlKey || e.metaKey || /INPUT|TEXTAREA|SELECT/.test(e.target.tagName)) return;
  var link = document.getElementById(e.key === "ArrowLeft" ? "prev" : e.key === "ArrowRight" ? "next" : "");
  if (link) { window.location = link.href; }
});
