// Tells the server the browser's time zone (a cookie, "tz"), so that a turn-based
// table's playing hours are the player's own: no deadline of theirs falls in their night.
(function () {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone) {
      document.cookie = "tz=" + encodeURIComponent(zone) + "; path=/; max-age=31536000; samesite=lax";
    }
  } catch (error) {
    // No Intl: the site's time zone holds.
  }
})();
