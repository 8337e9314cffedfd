// A table's report: each player's total over the nine holes with the hole being typed.
// The server renders the same totals, so the page reads right without this script.
(function () {
  "use strict";
  const WHOLE_NUMBER = /^[+-]?\d{1,4}$/;

  function update(input) {
    const output = document.querySelector('output[for="' + input.id + '"]');
    if (!output || !input.hasAttribute("data-before")) {
      return;
    }
    const before = parseInt(input.getAttribute("data-before"), 10);
    const value = input.value.trim();
    output.textContent = String(before + (WHOLE_NUMBER.test(value) ? parseInt(value, 10) : 0));
  }

  // htmx swaps the form in and out: listen on the document, which stays.
  document.addEventListener("input", function (event) {
    if (event.target.matches && event.target.matches("input[data-before]")) {
      update(event.target);
    }
  });
})();
