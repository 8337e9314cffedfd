// Keeps keyboard focus on the same control when a live update swaps the table's parts.
(function () {
  let focusedId = null;
  document.addEventListener("htmx:wsBeforeMessage", function () {
    const active = document.activeElement;
    focusedId = active && active.id ? active.id : null;
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    if (!focusedId || (document.activeElement && document.activeElement.id === focusedId)) return;
    const again = document.getElementById(focusedId);
    if (again) again.focus({ preventScroll: true });
  });
})();
