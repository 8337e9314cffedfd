// The table page's small helpers: keep keyboard focus across live updates, read out
// what changed, count down the server's deadlines and copy the invite link.
(function () {
  let focusedId = null;
  let focusInBoard = false;
  // Choices made but not sent yet (tee-off ticks, the cards of a swap) outlive a live
  // update: the frame re-renders the board, and the player's picks go back in place.
  let chosen = null;
  function rememberChoices() {
    chosen = {
      tee: Array.from(document.querySelectorAll(".tee-off input[name=positions]:checked")).map(
        function (input) { return input.value; }
      ),
      selects: Array.from(document.querySelectorAll("form.swap select[id]")).map(function (select) {
        return { id: select.id, value: select.value };
      }),
    };
  }
  function restoreChoices() {
    if (!chosen) return;
    const picks = chosen;
    chosen = null;
    document.querySelectorAll(".tee-off input[name=positions]").forEach(function (input) {
      if (picks.tee.indexOf(input.value) !== -1) input.checked = true;
    });
    picks.selects.forEach(function (saved) {
      const select = document.getElementById(saved.id);
      if (select && select.closest("form.swap") &&
          Array.from(select.options).some(function (o) { return o.value === saved.value; })) {
        select.value = saved.value;
      }
    });
  }

  document.addEventListener("htmx:wsBeforeMessage", function () {
    rememberChoices();
    const active = document.activeElement;
    focusedId = active && active.id ? active.id : null;
    focusInBoard = !!(active && active.closest && active.closest("#table-board"));
  });
  // Where play goes on after a swap took the focused control away: the next thing to do
  // on the felt (never "Leave the match", below it). With nothing to do yet (another
  // player's turn), the first control of a later frame takes the focus.
  const PLAY = "#table-board .felt button:not([disabled]), #table-board .felt input[type=checkbox]";
  let awaitingControl = false;
  document.addEventListener("focusin", function (event) {
    if (!event.target.closest("#table-board .felt")) awaitingControl = false;
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    restoreChoices();
    announce();
    startCountdowns();
    const active = document.activeElement;
    const lost = !active || active === document.body;
    if (!lost && (!focusedId || active.id === focusedId)) return;
    const again = focusedId && document.getElementById(focusedId);
    if (again) {
      again.focus({ preventScroll: true });
    } else if (focusInBoard || awaitingControl) {
      const next = document.querySelector(PLAY);
      awaitingControl = !next;
      if (next) next.focus({ preventScroll: true });
    }
  });

  // Screen readers hear, politely, every move new since the last frame (oldest first),
  // then what the table waits for; nothing when nothing changed.
  let lastLog = null;
  let lastTurn = null;
  function logLines() {
    return Array.from(document.querySelectorAll("#table-log .log-list li")).map(function (li) {
      return li.textContent.trim();
    });
  }
  // The lines of `now` (newest first) that `before` did not end on: the smallest shift
  // that lines the rest of `now` up with the start of `before`.
  function newLines(before, now) {
    for (let shift = 0; shift < now.length; shift++) {
      if (now.slice(shift).every(function (line, i) { return before[i] === line; })) {
        return now.slice(0, shift);
      }
    }
    return now;
  }
  function announce() {
    const status = document.getElementById("table-status");
    const region = document.getElementById("table-announce");
    if (!status || !region) return;
    const lines = logLines();
    const turn = status.dataset.turnText || "";
    if (lastLog === null) { // the page itself already shows all this
      lastLog = lines;
      lastTurn = turn;
      return;
    }
    const moves = newLines(lastLog, lines).reverse();
    if (moves.length || turn !== lastTurn) {
      region.textContent = moves.map(function (line) { return line + ". "; }).join("") + turn;
    }
    lastLog = lines;
    lastTurn = turn;
  }

  // The server renders how many seconds are left; this only ticks them down.
  let ticker = null;
  function startCountdowns() {
    const started = Date.now();
    const clocks = Array.from(document.querySelectorAll(".countdown[data-seconds]")).map(
      function (el) {
        return { el: el, seconds: parseInt(el.dataset.seconds, 10) || 0, suffix: el.textContent.replace(/^\d+/, "") };
      }
    );
    if (ticker) clearInterval(ticker);
    if (!clocks.length) return;
    ticker = setInterval(function () {
      const gone = Math.floor((Date.now() - started) / 1000);
      clocks.forEach(function (clock) {
        const left = Math.max(0, clock.seconds - gone);
        clock.el.textContent = left + clock.suffix;
        // Only a turn's last seconds are urgent; the wait for the next deal is not.
        clock.el.classList.toggle("urgent", clock.el.classList.contains("turn-timer") && left <= 10);
      });
    }, 250);
  }

  document.addEventListener("click", function (event) {
    const button = event.target.closest("[data-copy]");
    if (!button) return;
    const input = document.getElementById(button.dataset.copy);
    const note = button.closest(".invite") && button.closest(".invite").querySelector(".copy-note");
    input.select();
    const done = function () {
      if (note) note.textContent = "Link copied.";
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(done, function () {
        if (note) note.textContent = "Press Ctrl+C (or Cmd+C) to copy the selected link.";
      });
    } else {
      document.execCommand("copy") ? done() : (note.textContent = "Press Ctrl+C to copy the selected link.");
    }
  });

  function absoluteLinks() {
    // The live frame knows only the invite link's path; show the whole address.
    document.querySelectorAll(".invite-link").forEach(function (input) {
      if (input.value.startsWith("/")) input.value = new URL(input.value, location.href).href;
    });
  }
  document.addEventListener("htmx:wsAfterMessage", absoluteLinks);
  document.addEventListener("DOMContentLoaded", function () {
    absoluteLinks();
    startCountdowns();
    announce();
  });
})();
