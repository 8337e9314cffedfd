// Keeps the new-table form honest as you fill it: the seat count stays within the
// chosen game's range and only the seats the table has are offered. The server checks
// the same rules; this only saves a round trip.
(function () {
  function setUp() {
    const data = document.getElementById("seat-ranges");
    const variant = document.getElementById("id_variant");
    const seats = document.getElementById("id_seat_count");
    if (!data || !variant || !seats) return;
    const ranges = JSON.parse(data.textContent);
    const note = document.getElementById("seat-range");

    function update() {
      const range = ranges[variant.value];
      if (!range) return;
      const [low, high] = range;
      seats.min = low;
      seats.max = high;
      const count = parseInt(seats.value, 10);
      if (!Number.isNaN(count) && (count < low || count > high)) {
        seats.value = Math.min(Math.max(count, low), high);
      }
      const name = variant.options[variant.selectedIndex].text;
      if (note) note.textContent = name + " is for " + low + " to " + high + " players, you included.";
      const shown = parseInt(seats.value, 10) || low;
      document.querySelectorAll(".seat-field").forEach(function (field) {
        field.hidden = parseInt(field.dataset.seat, 10) >= shown;
      });
    }
    variant.addEventListener("change", update);
    seats.addEventListener("input", update);
    update();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();
