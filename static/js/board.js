// The night's board: pages of tables, teams and standings take turns on the screen,
// and the heading says whether the board is live. Each frame from the server replaces
// the board; the page shown stays the same across frames.
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
  document.addEventListener("htmx:wsOpen", function () { connection("Live", true); });
  document.addEventListener("htmx:wsClose", function (event) {
    const code = event.detail && event.detail.event ? event.detail.event.code : 0;
    // 4404 and 4410: the link does not work (the board says so); else htmx reconnects.
    connection(code >= 4000 ? "Not live" : "Reconnecting…", false);
  });
})();
