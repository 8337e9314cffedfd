// The turn-based tables waiting on the player, in the tab: the title starts with "(N) "
// and the icon wears a badge with N, drawn on a canvas from the site's icon (the
// Content-Security-Policy lets images come from data: URLs, no script inline). The
// server gives N with the page (<meta name="turns-waiting">) and at /play/your-turns.json;
// a page that asks for it (data-every, in seconds) asks again while it is in view, and
// every page asks when it comes back into view or its table's turn changes.
(function () {
  const PREFIX = /^\(\d+\) /;
  const meta = document.querySelector("meta[name=turns-waiting]");
  const link = document.querySelector("link[rel=icon]");
  if (!meta || !link) return;
  const plainIcon = link.getAttribute("href");
  const every = parseInt(meta.dataset.every, 10) * 1000;
  const drawn = {};
  let shown = null;

  function count() {
    const n = parseInt(meta.content, 10);
    return n > 0 ? n : 0;
  }

  function setTitle(n) {
    const bare = document.title.replace(PREFIX, "");
    document.title = n > 0 ? "(" + n + ") " + bare : bare;
  }

  // On a table's page, the table's own turn icon while it waits on this player (turn-alerts.js).
  function baseIcon() {
    const status = document.getElementById("table-status");
    const box = document.getElementById("turn-alerts");
    const mine = status && status.dataset.yourTurn === "yes";
    return mine && box && box.dataset.turnIcon ? box.dataset.turnIcon : plainIcon;
  }

  function draw(image, n) {
    const size = 64;
    const canvas = document.createElement("canvas");
    canvas.width = size;
    canvas.height = size;
    const pen = canvas.getContext("2d");
    pen.drawImage(image, 0, 0, size, size);
    const text = n > 9 ? "9+" : String(n);
    const radius = size * 0.3;
    pen.beginPath();
    pen.arc(size - radius, radius, radius, 0, 2 * Math.PI);
    pen.fillStyle = "#c62828";
    pen.fill();
    pen.fillStyle = "#fff";
    pen.font = "bold " + Math.round(radius * (text.length > 1 ? 1.1 : 1.5)) + "px sans-serif";
    pen.textAlign = "center";
    pen.textBaseline = "middle";
    pen.fillText(text, size - radius, radius + 1);
    return canvas.toDataURL("image/png");
  }

  function setIcon(n) {
    const source = baseIcon();
    const key = source + "#" + n;
    shown = key;
    if (!n) { link.setAttribute("href", source); return; }
    if (drawn[key]) { link.setAttribute("href", drawn[key]); return; }
    const image = new Image();
    image.onload = function () {
      try { drawn[key] = draw(image, n); } catch (error) { return; } // no canvas: the plain icon stays
      if (shown === key) link.setAttribute("href", drawn[key]);
    };
    image.src = source;
  }

  function show() {
    const n = count();
    setTitle(n);
    setIcon(n);
  }

  function refresh() {
    fetch(meta.dataset.url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (answer) {
        if (!answer || typeof answer.waiting !== "number") return;
        meta.content = String(answer.waiting);
        show();
      })
      .catch(function () { /* offline: the last count stands */ });
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") refresh();
  });
  // turn-alerts.js says when a table's turn passes to or from this player.
  document.addEventListener("fairway:turn", function (event) {
    show();
    if (event.detail && event.detail.changed) refresh();
  });
  if (every > 0) {
    setInterval(function () { if (document.visibilityState === "visible") refresh(); }, every);
  }
  show();
})();
