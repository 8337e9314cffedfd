// A table's report on a phone with a poor connection: every hole entered, confirmed,
// disputed or settled is kept on the phone first (localStorage: it survives a reload
// and the browser being closed), shown as waiting to send, and sent one at a time, in
// the order made, whenever the connection allows. Each entry carries a key of its own
// that the server records with it, so an entry sent again (its answer lost on the way)
// is recorded once and answered as before.
//
// What the server answers is shown as the page would show it: a hole the other phone
// changed meanwhile comes back as the page's "changed while you typed" panel, where the
// player chooses; a refused entry comes back with its errors. Either way the entries
// after it wait until the player has dealt with it. Without this script the page's
// plain forms work as before (minus the keeping).
(function () {
  "use strict";
  const WRITE = /\/holes\/(\d+)\/(?:(confirm|dispute|settle)\/)?$/;
  const RETRY_MS = 3000;
  const HOLES = 9;
  let sending = false;
  let paused = false;
  // The server's answers taken so far (an entry recorded, a clash or refusal shown): a
  // read of the report begun before the latest of them shows less than the page knows.
  let answered = 0;

  function root() {
    return document.querySelector("[data-outbox]");
  }

  function storeKey() {
    const page = root();
    return page ? "fairway:outbox:" + page.getAttribute("data-outbox") : null;
  }

  function load() {
    const key = storeKey();
    if (!key) {
      return [];
    }
    try {
      return JSON.parse(window.localStorage.getItem(key) || "[]");
    } catch (error) {
      return [];
    }
  }

  function save(entries) {
    const key = storeKey();
    if (!key) {
      return;
    }
    if (entries.length) {
      window.localStorage.setItem(key, JSON.stringify(entries));
    } else {
      window.localStorage.removeItem(key);
    }
  }

  // The holes this phone entered and sent: a page kept from before they were sent
  // (opened again with no connection) moves its form past them, as past those waiting.
  function sent() {
    const key = storeKey();
    try {
      return key ? JSON.parse(window.localStorage.getItem(key + ":sent") || "[]") : [];
    } catch (error) {
      return [];
    }
  }

  function remember(entry) {
    const key = storeKey();
    if (key) {
      const others = sent().filter(function (e) { return e.number !== entry.number; });
      others.push({ number: entry.number, fields: entry.fields });
      window.localStorage.setItem(key + ":sent", JSON.stringify(others));
    }
  }

  function newKey() {
    if (window.crypto && window.crypto.randomUUID) {
      return window.crypto.randomUUID();
    }
    const bytes = window.crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = Array.from(bytes, function (b) { return b.toString(16).padStart(2, "0"); });
    return [0, 4, 6, 8, 10].map(function (start, i) {
      return hex.slice(start, [4, 6, 8, 10, 16][i]).join("");
    }).join("-");
  }

  function csrfToken(doc) {
    try {
      return JSON.parse(doc.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (error) {
      return "";
    }
  }

  // What the waiting list says of an entry: the hole, what is done, the figures.
  function describe(form, kind, number) {
    const hole = "Hole " + number;
    if (kind === "confirm") {
      return "Confirm " + hole.toLowerCase();
    }
    if (kind === "dispute") {
      const reason = form.querySelector('[name="reason"]');
      return "Dispute " + hole.toLowerCase() + (reason && reason.value ? ": “" + reason.value + "”" : "");
    }
    const cells = Array.from(form.querySelectorAll(".stroke-cell")).map(function (cell) {
      const label = cell.querySelector("label");
      const input = cell.querySelector("input");
      return (label ? label.textContent.trim() : "") + " " + (input ? input.value.trim() : "");
    });
    return (kind === "settle" ? "Settle " : "") + hole + ": " + cells.join(", ");
  }

  function render() {
    const box = document.getElementById("report-outbox");
    if (!box) {
      return;
    }
    const entries = load();
    const list = box.querySelector("ol");
    list.replaceChildren();
    entries.forEach(function (entry) {
      const item = document.createElement("li");
      item.setAttribute("data-waiting", entry.number);
      item.textContent = entry.label + ": waiting to send";
      list.append(item);
    });
    box.hidden = entries.length === 0;
    // A confirmation or dispute waiting to send: its hole's buttons are done with.
    entries.forEach(function (entry) {
      if (entry.kind === "confirm" || entry.kind === "dispute") {
        const line = document.getElementById("hole-" + entry.number);
        const actions = line && line.querySelector(".hole-actions");
        if (actions) {
          actions.hidden = true;
        }
      }
    });
    advance();
  }

  // The form of a hole whose entry waits to send moves on to the next hole, so that a
  // phone with no connection goes on entering the round (totals counting what waits).
  function advance() {
    const form = document.getElementById("hole-form");
    if (!form) {
      return;
    }
    const entries = load();
    const done = sent();
    for (;;) {
      const found = WRITE.exec(new URL(form.action, location.href).pathname);
      const number = found ? parseInt(found[1], 10) : 0;
      const version = form.querySelector('[name="version"]');
      const fresh = version && version.value === "0";
      const waiting = entries.find(function (e) { return e.kind === "enter" && e.number === number; });
      const gone = waiting || (fresh && done.find(function (e) { return e.number === number; }));
      if (!gone || number >= HOLES) {
        if (gone) {
          form.closest("section").hidden = true;
        }
        return;
      }
      const typed = new Map(gone.fields);
      form.action = form.action.replace(/\/holes\/\d+\/$/, "/holes/" + (number + 1) + "/");
      form.querySelectorAll('[name="version"]').forEach(function (input) { input.value = "0"; });
      form.querySelectorAll('[name="key"], .form-errors, .errors').forEach(function (node) { node.remove(); });
      form.querySelectorAll(".stroke-input").forEach(function (input) {
        const value = parseInt(typed.get(input.name) || "0", 10);
        if (input.hasAttribute("data-before")) {
          const before = parseInt(input.getAttribute("data-before"), 10) + (isNaN(value) ? 0 : value);
          input.setAttribute("data-before", String(before));
          const output = form.querySelector('output[for="' + input.id + '"]');
          if (output) {
            output.textContent = String(before);
          }
        }
        input.value = "";
        input.defaultValue = "";
        input.removeAttribute("aria-invalid");
      });
      const name = "hole " + (number + 1);
      const heading = form.closest("section").querySelector("h2");
      if (heading) {
        heading.textContent = "Enter " + name;
      }
      const save = form.querySelector('button[type="submit"]:not([formaction])');
      if (save) {
        save.textContent = "Save " + name;
      }
      form.querySelectorAll("button[formaction]").forEach(function (button) {
        button.setAttribute("formaction", button.getAttribute("formaction").replace(/\/holes\/\d+\//, "/holes/" + (number + 1) + "/"));
      });
    }
  }

  function keep(event) {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !root() || !root().contains(form)) {
      return;
    }
    const submitter = event.submitter;
    const action = submitter && submitter.hasAttribute("formaction") ? submitter.formAction : form.action;
    const found = WRITE.exec(new URL(action, location.href).pathname);
    if (!found || form.method.toLowerCase() !== "post") {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
    const kind = found[2] || "enter";
    const number = parseInt(found[1], 10);
    const fields = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken" && name !== "key") {
        fields.push([name, String(value)]);
      }
    });
    const key = newKey();
    fields.push(["key", key]);
    const entries = load();
    entries.push({ key: key, action: new URL(action, location.href).pathname, fields: fields, kind: kind, number: number, label: describe(form, kind, number) });
    save(entries);
    paused = false;
    render();
    send();
  }

  // The page answered stands at the address it came from, as when the form was sent
  // without this script: a reload (or going back) after a refusal shows that form.
  function swapMain(html, address) {
    if (address && address !== location.href) {
      history.pushState(null, "", address);
    }
    const doc = new DOMParser().parseFromString(html, "text/html");
    const fresh = doc.getElementById("main");
    const main = document.getElementById("main");
    if (!fresh || !main) {
      return;
    }
    const token = doc.body && doc.body.getAttribute("hx-headers");
    if (token) {
      document.body.setAttribute("hx-headers", token);
    }
    const adopted = document.adoptNode(fresh);
    main.replaceWith(adopted);
    if (window.htmx) {
      window.htmx.process(adopted);
    }
    render();
    if (window.fairwayOffline) {
      window.fairwayOffline.show();
    }
  }

  // Whether the player has typed into the form on screen (the next hole, entered while
  // the others were sending) or opened a dispute: the page is not replaced under them.
  function typing() {
    const form = document.getElementById("hole-form");
    const typed = !!form && Array.from(form.querySelectorAll(".stroke-input")).some(function (input) {
      return input.value.trim() !== input.defaultValue.trim();
    });
    // A cell tapped and not typed in yet is theirs too: the digits typed next would go
    // nowhere once the form they were meant for was replaced.
    const field = document.activeElement;
    const within = !!form && !!field && form.contains(field) && /^(?:INPUT|TEXTAREA)$/.test(field.tagName);
    // A dispute's form the player opened meanwhile is theirs too.
    return typed || within || !!document.querySelector('#entry form[action$="/dispute/"]');
  }

  function post(entry) {
    const body = new URLSearchParams(entry.fields);
    body.append("csrfmiddlewaretoken", csrfToken(document));
    // A recorded entry is answered with a redirect to the report: not followed here,
    // the report is read once the queue is sent, through the worker that keeps it.
    return fetch(entry.action, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      redirect: "manual",
      headers: { "X-CSRFToken": csrfToken(document) },
    });
  }

  async function send() {
    if (sending || paused) {
      return;
    }
    sending = true;
    let report = null;
    let retried = false;
    try {
      for (;;) {
        const entries = load();
        if (!entries.length || !navigator.onLine) {
          break;
        }
        const entry = entries[0];
        let response;
        try {
          response = await post(entry);
        } catch (error) {
          window.fairwayOffline && window.fairwayOffline.unreachable(true);
          break;
        }
        if (response.status >= 500) {
          window.fairwayOffline && window.fairwayOffline.unreachable(true);
          break;
        }
        window.fairwayOffline && window.fairwayOffline.unreachable(false);
        if (response.type === "opaqueredirect") {
          answered += 1;
          save(load().filter(function (e) { return e.key !== entry.key; }));
          if (entry.kind === "enter") {
            remember(entry);
          }
          report = entry.action.replace(/holes\/.*$/, "");
          continue;
        }
        const html = await response.text();
        if (response.status === 403 && /CSRF/i.test(html) && !retried) {
          retried = true;
          // The page's token is older than the session: take the page's own again.
          const fresh = await fetch(location.pathname, { credentials: "same-origin" });
          const doc = new DOMParser().parseFromString(await fresh.text(), "text/html");
          document.body.setAttribute("hx-headers", doc.body.getAttribute("hx-headers") || "{}");
          continue;
        }
        save(load().filter(function (e) { return e.key !== entry.key; }));
        // A clash or a refusal: the page says what happened and the player chooses;
        // what waits behind it waits for that.
        paused = true;
        report = null;
        answered += 1;
        swapMain(html, response.url);
        break;
      }
    } finally {
      sending = false;
    }
    if (report !== null) {
      // Read through the worker, which keeps the page as it now stands for a reload
      // with no connection; shown unless the player is typing the next hole.
      try {
        const asOf = answered;
        const fresh = await fetch(report, { credentials: "same-origin" });
        const html = fresh.ok ? await fresh.text() : "";
        // Asked after the last wait, just before the swap: a digit typed while the page
        // was read must not go with the form it was typed in. A read overtaken by a later
        // answer is dropped: the page shown would lack that entry (or hide that clash),
        // and the later entry's own read brings the page.
        if (fresh.ok && asOf === answered && !typing()) {
          swapMain(html, fresh.url);
          return;
        }
      } catch (error) {
        // The socket brings the holes; the next send brings the page.
      }
    }
    render();
  }

  document.addEventListener("submit", keep, true);

  // The player asked for another part of the page (a hole to change, a dispute): a read
  // of the report begun before it must not replace what they asked for.
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.detail && event.detail.target && event.detail.target.id === "main") {
      answered += 1;
    }
  });

  // The page's main part loaded anew (the player chose "Keep theirs", or went on):
  // what waited behind a clash may go. A hole list pushed by the socket is not that.
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.target && event.target.id === "main") {
      paused = false;
    }
    render();
    send();
  });
  window.addEventListener("online", send);
  document.addEventListener("DOMContentLoaded", function () {
    render();
    send();
  });
  setInterval(send, RETRY_MS);
})();
