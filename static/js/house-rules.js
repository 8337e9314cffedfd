// House rules follow the game: a form with a game (select name="variant") and house
// rules' boxes (each with data-games, the games that offer it) shows only the chosen
// game's rules, named alone, and unticks the others. Without this script every rule is
// offered, each with its games beside it, and the server refuses a rule of another game.
(function () {
  function narrow(form) {
    const variant = form.querySelector('select[name="variant"]');
    const boxes = form.querySelectorAll('input[name="house_rules"][data-games]');
    if (!variant || !boxes.length) return;
    boxes.forEach(function (box) {
      const label = box.closest("label");
      const text = label && Array.from(label.childNodes).find(function (node) {
        return node.nodeType === Node.TEXT_NODE && node.textContent.trim();
      });
      // "Kings -2 (6-card Golf; 9-card Golf)": the games go, the choice of game says them.
      if (text) text.textContent = " " + text.textContent.trim().split(" (")[0];
    });

    function update() {
      boxes.forEach(function (box) {
        const offered = box.dataset.games.split(" ").indexOf(variant.value) !== -1;
        const row = box.closest("label").parentElement;
        row.hidden = !offered;
        if (!offered) box.checked = false;
      });
    }
    variant.addEventListener("change", update);
    update();
  }

  function setUp() {
    document.querySelectorAll("form").forEach(narrow);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();
