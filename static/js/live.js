// A page that lives on a socket (a night's arrivals, a paper table's holes): while the
// socket is down, each part marked data-poll-offline="SECONDS" is asked for again that
// often (htmx's "poll" trigger); while it is up, the socket's frames keep it current.
// On a night's page, the arrivals part carries the ids checked in: the organiser's
// "Players present" ticks follow it, and so does the form's record of what was seen.
(function () {
  "use strict";
  let open = false;
  const polled = new Map();

  document.addEventListener("htmx:wsOpen", function () { open = true; });
  document.addEventListener("htmx:wsClose", function () { open = false; });

  setInterval(function () {
    if (open || !window.htmx) {
      return;
    }
    const now = Date.now();
    document.querySelectorAll("[data-poll-offline]").forEach(function (part) {
      const every = parseInt(part.getAttribute("data-poll-offline"), 10) * 1000;
      if (now - (polled.get(part.id) || now - every) >= every) {
        polled.set(part.id, now);
        window.htmx.trigger(part, "poll");
      }
    });
  }, 5000);

  function badge(label, shown) {
    const existing = label.querySelector("[data-check-in-badge]");
    if (shown && !existing) {
      const span = document.createElement("span");
      span.className = "badge";
      span.setAttribute("data-check-in-badge", "");
      span.textContent = "checked in";
      label.append(" ", span);
    } else if (!shown && existing) {
      existing.remove();
    }
  }

  // Tick those who checked in since the form was drawn (and untick those who took it
  // back), leaving the organiser's own ticks alone; the form's "seen" says which
  // check-ins the organiser has been shown, so that saving it keeps its meaning.
  function followCheckIns() {
    const part = document.getElementById("arrivals");
    const form = document.getElementById("players-form");
    if (!part || !form || !part.hasAttribute("data-checked-in")) {
      return;
    }
    const here = new Set(part.getAttribute("data-checked-in").split(",").filter(Boolean));
    const seenInput = form.querySelector('input[name="seen"]');
    const seen = new Set((seenInput ? seenInput.value : "").split(",").filter(Boolean));
    form.querySelectorAll('input[type="checkbox"][name="players"]').forEach(function (box) {
      const label = box.closest("label");
      if (here.has(box.value) && !seen.has(box.value)) {
        box.checked = true;
        seen.add(box.value);
      } else if (!here.has(box.value) && seen.has(box.value)) {
        box.checked = false;
        seen.delete(box.value);
      }
      if (label) {
        badge(label, here.has(box.value));
      }
    });
    if (seenInput) {
      seenInput.value = Array.from(seen).join(",");
    }
  }
  document.addEventListener("htmx:wsAfterMessage", followCheckIns);
  document.addEventListener("htmx:afterSettle", followCheckIns);
})();
