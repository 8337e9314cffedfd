// Print buttons: a button marked data-print prints the page (no inline handler needed).
document.addEventListener("click", function (event) {
  if (event.target.closest("[data-print]")) {
    window.print();
  }
});
