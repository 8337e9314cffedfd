// The pages a phone uses in the club room (a paper table's report, the night's
// check-in): registers the site's service worker, which keeps them to open with no
// connection once visited, and says plainly while the phone is offline. A page's
// queue of what waits to send calls `fairwayOffline.unreachable(true)` when the
// server does not answer although the phone thinks it is online.
(function () {
  "use strict";
  let unreachable = false;

  // On the first visit the page came before its worker: once the worker controls it,
  // read the page once more through the worker, which keeps it for the next time.
  function keepThisPage() {
    fetch(location.pathname + location.search, { credentials: "same-origin" }).catch(function () {});
  }

  if ("serviceWorker" in navigator) {
    const controlled = !!navigator.serviceWorker.controller;
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(
      function () {
        if (!controlled) {
          navigator.serviceWorker.addEventListener("controllerchange", keepThisPage, { once: true });
        }
      },
      function () {
        // No worker (a private window, an old browser): the page works online as before.
      }
    );
  }

  function show() {
    const offline = !navigator.onLine || unreachable;
    document.querySelectorAll("[data-offline-notice]").forEach(function (notice) {
      notice.hidden = !offline;
    });
  }

  window.fairwayOffline = {
    show: show,
    unreachable: function (value) {
      unreachable = value;
      show();
    },
  };
  window.addEventListener("online", show);
  window.addEventListener("offline", show);
  document.addEventListener("htmx:afterSettle", show);
  document.addEventListener("DOMContentLoaded", show);
  show();
})();
