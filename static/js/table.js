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
  document.addEventListener("htmx:wsAfterMessage", function () {
    restoreChoices();
    announce();
    startCountdowns();
    if (!focusedId || (document.activeElement && document.activeElement.id === focusedId)) return;
    const again = document.getElementById(focusedId);
    if (again) {
      again.focus({ preventScroll: true });
    } else if (focusInBoard) {
      // The control used is gone (a card was drawn): go on to the next thing to do.
      const next = document.querySelector(
        "#table-board button:not([disabled]), #table-board input[type=checkbox]"
      );
      if (next) next.focus({ preventScroll: true });
    }
  });

  // One polite sentence for screen readers, only when it says something new.
  let lastSaid = null;
  function announce() {
    const status = document.getElementById("table-status");
    const region = document.getElementById("table-announce");
    if (!status || !region) return;
    const text = status.dataset.announce || "";
    if (lastSaid === null) {
      lastSaid = text; // the page itself already shows it
      return;
    }
    if (text !== lastSaid) {
      lastSaid = text;
      region.textContent = text;
    }
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
