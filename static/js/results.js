// The results form's running totals: each player's nine holes, added up as typed.
// The server renders the same totals, so the page reads right without this script.
(function () {
  "use strict";
  const grid = document.querySelector("[data-running-totals]");
  if (!grid) {
    return;
  }
  const WHOLE_NUMBER = /^[+-]?\d{1,4}$/;

  function update() {
    grid.querySelectorAll("output[data-total-for]").forEach(function (output) {
      const player = output.getAttribute("data-total-for");
      const cells = grid.querySelectorAll(
        'input[data-regulation][data-player="' + player + '"]'
      );
      let total = 0;
      cells.forEach(function (cell) {
        const value = cell.value.trim();
        if (WHOLE_NUMBER.test(value)) {
          total += parseInt(value, 10);
        }
      });
      output.textContent = String(total);
    });
  }

  grid.addEventListener("input", update);
  // Anything typed before this script ran counts too.
  update();
})();
