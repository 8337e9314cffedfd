// The check-in page on a phone with a poor connection (the car park, the club room's
// wifi): "I'm here" pressed with no connection is kept on the phone (localStorage:
// it survives a reload and the browser being closed), said to be waiting, and sent
// when the connection returns. The server decides as it would have: checked in, or
// refused (the tables were seated meanwhile), which the page then says plainly.
// Online, the form is sent as before.
(function () {
  "use strict";
  const RETRY_MS = 3000;
  let sending = false;

  function page() {
    return document.querySelector("[data-check-in]");
  }

  function storeKey() {
    const found = page();
    return found ? "fairway:check-in:" + found.getAttribute("data-check-in") : null;
  }

  function waiting() {
    const key = storeKey();
    return key ? window.localStorage.getItem(key) : null;
  }

  function say(text, refused) {
    const note = document.getElementById("check-in-waiting");
    if (!note) {
      return;
    }
    note.textContent = text;
    note.hidden = !text;
    note.classList.toggle("form-errors", !!refused);
  }

  function render() {
    if (waiting()) {
      say("Your check-in is waiting to send: it goes when the connection returns.");
      const box = document.getElementById("check-in");
      if (box) {
        box.hidden = true;
      }
    }
  }

  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (error) {
      return "";
    }
  }

  function swapMain(html) {
    const doc = new DOMParser().parseFromString(html, "text/html");
    const fresh = doc.getElementById("main");
    const main = document.getElementById("main");
    if (fresh && main) {
      main.replaceWith(document.adoptNode(fresh));
    }
    if (window.fairwayOffline) {
      window.fairwayOffline.show();
    }
  }

  async function send() {
    const action = waiting();
    if (sending || !action || !navigator.onLine) {
      return;
    }
    sending = true;
    try {
      const body = new URLSearchParams({ csrfmiddlewaretoken: csrfToken(), back: "" });
      let response;
      try {
        // Checked in is answered with a redirect: the page is then read through the
        // worker, which keeps it as it now stands.
        response = await fetch(action, {
          method: "POST",
          body: body,
          credentials: "same-origin",
          redirect: "manual",
        });
      } catch (error) {
        return;
      }
      if (response.status >= 500) {
        return;
      }
      const refused = response.type !== "opaqueredirect";
      const html = refused ? await response.text() : await (await fetch(action, { credentials: "same-origin" })).text();
      window.localStorage.removeItem(storeKey());
      swapMain(html);
      if (refused) {
        const reason = document.querySelector("#main .form-errors");
        say(
          "Your check-in, pressed while offline, was refused" +
            (reason ? ": " + reason.textContent.trim() : "."),
          true
        );
      }
    } finally {
      sending = false;
    }
  }

  document.addEventListener(
    "submit",
    function (event) {
      const form = event.target;
      if (!page() || !(form instanceof HTMLFormElement) || !page().contains(form)) {
        return;
      }
      if (!/\/check-in\/$/.test(new URL(form.action, location.href).pathname) || navigator.onLine) {
        return;
      }
      event.preventDefault();
      window.localStorage.setItem(storeKey(), new URL(form.action, location.href).pathname);
      render();
    },
    true
  );
  window.addEventListener("online", send);
  document.addEventListener("DOMContentLoaded", function () {
    render();
    send();
  });
  setInterval(send, RETRY_MS);
})();
