// Tells the server the browser's time zone (a cookie, "tz"), so that a turn-based
// table's playing hours are the player's own: no deadline of theirs falls in their night.
// On the account page, offers the same zone for the player's profile (a button beside
// the list), and fills the list with it while the player has chosen none. Times the
// server writes in UTC (<time datetime data-local>) are shown in the browser's zone,
// again each time a socket's message swaps them in.
(function () {
  let zone = "";
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
    if (zone) {
      document.cookie = "tz=" + encodeURIComponent(zone) + "; path=/; max-age=31536000; samesite=lax";
    }
  } catch (error) {
    // No Intl: the site's time zone holds.
  }

  function offer() {
    const button = document.querySelector("button[data-zone-for]");
    const list = button ? document.getElementById(button.dataset.zoneFor) : null;
    if (!list || !zone) return;
    const known = Array.prototype.some.call(list.options, function (o) { return o.value === zone; });
    if (!known) return;
    button.textContent = "Use this device's zone (" + zone.replace(/_/g, " ") + ")";
    button.parentElement.hidden = false;
    button.addEventListener("click", function () { list.value = zone; });
    if (!list.value) list.value = zone;
  }

  const local = (function () {
    try {
      return new Intl.DateTimeFormat(undefined, {
        weekday: "short", day: "numeric", month: "short",
        hour: "2-digit", minute: "2-digit", timeZoneName: "short",
      });
    } catch (error) {
      return null;
    }
  })();

  function localTimes() {
    if (!local) return;
    document.querySelectorAll("time[data-local]").forEach(function (element) {
      const when = new Date(element.getAttribute("datetime"));
      if (!isNaN(when)) element.textContent = local.format(when);
    });
  }

  document.addEventListener("DOMContentLoaded", offer);
  document.addEventListener("DOMContentLoaded", localTimes);
  document.addEventListener("htmx:wsAfterMessage", localTimes);
  document.addEventListener("htmx:afterSwap", localTimes);
})();
