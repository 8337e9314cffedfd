// Copy buttons: a button marked data-copy="<id>" copies that read-only field's text and
// says so in the note named by its aria-describedby. Where the clipboard API is missing
// (an older browser, a page not served over HTTPS) the text is selected and copied the
// old way, or left selected for Ctrl+C.
(function () {
  document.addEventListener("click", function (event) {
    const button = event.target.closest("[data-copy]");
    if (!button) return;
    const field = document.getElementById(button.dataset.copy);
    if (!field) return;
    const note = document.getElementById(button.getAttribute("aria-describedby") || "");
    const say = function (text) {
      if (note) note.textContent = text;
    };
    const byHand = function () {
      field.focus();
      field.select();
      let copied = false;
      try {
        copied = document.execCommand("copy");
      } catch (error) {
        copied = false;
      }
      say(copied ? "Copied." : "Press Ctrl+C (or Cmd+C) to copy the selected address.");
    };
    say("");
    if (navigator.clipboard && navigator.clipboard.writeText && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(function () {
        say("Copied.");
      }, byHand);
    } else {
      byHand();
    }
  });
})();
