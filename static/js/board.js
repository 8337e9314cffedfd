// The night's board: pages of tables, teams and standings take turns on the screen,
// and the heading says whether the board is live. Each frame from the server replaces
// the board; the page shown stays the same across frames.
//
// When the room's wifi drops, the board keeps what it shows and says it is
// reconnecting; when the connection returns it reconnects at once, rather than after
// the ws extension's growing pause, and the server's first frame on connecting is the
// board as it stands (read afresh, as the rules let the room see it).
(function () {
  const TURN_MS = 12000;
  let turn = 0;

  function show() {
    document.querySelectorAll(".board-tables, .board-teams, .board-standings").forEach(function (region) {
      const pages = region.querySelectorAll("[data-board-page]");
      pages.forEach(function (page, index) {
        page.classList.toggle("is-shown", index === turn % pages.length);
      });
    });
  }

  setInterval(function () {
    turn += 1;
    show();
  }, TURN_MS);
  document.addEventListener("htmx:wsAfterMessage", show);

  function connection(text, live) {
    const note = document.getElementById("board-connection");
    if (!note) return;
    note.textContent = text;
    note.classList.toggle("is-live", live);
  }
  let socket = null;
  let offline = false;
  document.addEventListener("htmx:wsOpen", function (event) {
    socket = event.detail && event.detail.socketWrapper;
    if (offline) {
      return;
    }
    connection("Live", true);
  });
  // While the browser says it is offline, a retry stays a second apart (it fails at
  // once, on the phone itself); online, the extension's own growing pause.
  if (window.htmx) {
    window.htmx.config.wsReconnectDelay = function (retries) {
      return navigator.onLine ? Math.random() * 1000 * Math.pow(2, Math.min(retries, 5)) : 1000;
    };
  }
  window.addEventListener("offline", function () {
    offline = true;
    connection("Reconnecting…", false);
  });
  window.addEventListener("online", function () {
    offline = false;
    if (socket) {
      socket.reconnect();
    }
  });
  document.addEventListener("htmx:wsClose", function (event) {
    const code = event.detail && event.detail.event ? event.detail.event.code : 0;
    // 4404 and 4410: the link does not work (the board says so); else htmx reconnects.
    connection(code >= 4000 ? "Not live" : "Reconnecting…", false);
  });
})();
