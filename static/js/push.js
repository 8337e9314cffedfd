// The account page's "Notify me on this device": subscribes this browser's service
// worker (/sw.js) to Web Push with the site's public key and gives the subscription to
// the server, or takes it back. The box stays hidden where the browser cannot take a
// push; the box is on the page only when the site has its keys.
(function () {
  "use strict";

  function keyBytes(base64url) {
    const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
    const raw = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
    return Uint8Array.from(raw, function (c) { return c.charCodeAt(0); });
  }

  function post(box, url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": box.dataset.csrf },
      body: JSON.stringify(body),
    }).then(function (response) {
      if (response.ok) return response.json();
      return response.json().then(
        function (answer) { throw new Error(answer.error || "The server said no."); },
        function () { throw new Error("The server said no."); }
      );
    });
  }

  function turnOn(box, registration) {
    const asked = Notification.permission === "default"
      ? Notification.requestPermission() : Promise.resolve(Notification.permission);
    return asked.then(function (answer) {
      if (answer !== "granted") {
        throw new Error("Notifications are blocked for this site in the browser.");
      }
      return registration.pushManager.subscribe({
        userVisibleOnly: true, applicationServerKey: keyBytes(box.dataset.key),
      });
    }).then(function (subscription) {
      return post(box, box.dataset.on, subscription.toJSON()).catch(function (error) {
        // The server did not keep it: the browser must not keep it either.
        return subscription.unsubscribe().then(function () { throw error; });
      });
    });
  }

  function turnOff(box, registration) {
    return registration.pushManager.getSubscription().then(function (subscription) {
      if (!subscription) return null;
      const endpoint = subscription.endpoint;
      return subscription.unsubscribe().then(function () {
        return post(box, box.dataset.off, { endpoint: endpoint }).catch(function () {});
      });
    });
  }

  function setUp() {
    const box = document.getElementById("device-notices");
    if (!box || !("serviceWorker" in navigator) || !("PushManager" in window) ||
        !("Notification" in window)) {
      return;
    }
    const toggle = document.getElementById("device-notify");
    const note = box.querySelector(".device-note");
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (registration) {
      return registration.pushManager.getSubscription().then(function (subscription) {
        toggle.checked = !!subscription && Notification.permission === "granted";
        box.hidden = false;
        toggle.addEventListener("change", function () {
          const on = toggle.checked;
          toggle.disabled = true;
          note.textContent = "";
          (on ? turnOn(box, registration) : turnOff(box, registration)).then(
            function () {
              note.textContent = on ? "This device will show your turns." : "This device will show no more turns.";
              box.dataset.state = on ? "on" : "off";
            },
            function (error) {
              toggle.checked = !on;
              note.textContent = error.message || "That did not work.";
            }
          ).then(function () { toggle.disabled = false; });
        });
        box.dataset.state = toggle.checked ? "on" : "off";
      });
    }).catch(function () {
      // No worker (a private window, an old browser): no notices on this device.
    });
  }

  document.addEventListener("DOMContentLoaded", setUp);
})();
