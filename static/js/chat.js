// The table chat's own helpers: mute a player for yourself (kept in this browser), keep
// what you are typing across live updates, clear the box once sent, show the newest line
// and read new lines out.
(function () {
  // Each account's mutes apart, should several share a browser (the script is deferred:
  // the page's chat panel is there).
  const panel = document.getElementById("table-chat");
  const KEY = "fairway.chat.muted." + (panel ? panel.dataset.viewer : "");

  function muted() {
    try {
      const saved = JSON.parse(localStorage.getItem(KEY) || "{}");
      return saved && typeof saved === "object" ? saved : {};
    } catch (e) {
      return {};
    }
  }
  // Held here too, so that muting works for this page where the browser keeps nothing.
  let list = muted();
  function save() {
    try {
      localStorage.setItem(KEY, JSON.stringify(list));
    } catch (e) { /* nowhere to keep it: it lasts until the page reloads */ }
  }

  // Hide muted players' lines and list them, each with a button to hear them again.
  function apply() {
    document.querySelectorAll("#table-chat .chat-line[data-author]").forEach(function (li) {
      li.hidden = Object.prototype.hasOwnProperty.call(list, li.dataset.author);
    });
    const note = document.getElementById("chat-muted");
    if (!note) return;
    note.textContent = "";
    const ids = Object.keys(list);
    if (!ids.length) return;
    note.append("Muted: ");
    ids.forEach(function (id, i) {
      if (i) note.append(", ");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "link-button chat-unmute";
      button.dataset.unmute = id;
      button.textContent = "unmute " + list[id];
      note.append(button);
    });
  }

  function scrollToNewest() {
    const list = document.querySelector("#table-chat .chat-list");
    if (list) list.scrollTop = list.scrollHeight;
  }

  document.addEventListener("click", function (event) {
    const mute = event.target.closest("[data-mute]");
    const unmute = event.target.closest("[data-unmute]");
    if (!mute && !unmute) return;
    if (mute) list[mute.dataset.mute] = mute.dataset.name;
    else delete list[unmute.dataset.unmute];
    save();
    apply();
  });

  // A chat update swaps the whole panel: what is being typed goes back in place.
  let typing = null;
  document.addEventListener("htmx:wsBeforeMessage", function () {
    const box = document.getElementById("chat-text");
    typing = box ? box.value : null;
  });
  // Lines that came while the chat was out of view, counted on the "Chat" link at the
  // top of the page (a phone shows the chat far below the felt) until it is seen.
  let unread = 0;
  function chatInView() {
    const chat = document.getElementById("table-chat");
    if (!chat) return true;
    const box = chat.getBoundingClientRect();
    return box.height > 0 && box.top < window.innerHeight - 40 && box.bottom > 40;
  }
  function showUnread() {
    const badge = document.getElementById("chat-unread");
    const link = document.getElementById("chat-jump");
    if (!badge || !link) return;
    badge.hidden = unread === 0;
    badge.textContent = unread ? unread + " new" : "";
    link.setAttribute("aria-label", unread ? "Chat, " + unread + " new" : "Chat");
  }
  function readAll() {
    if (!unread || !chatInView()) return;
    unread = 0;
    showUnread();
  }
  window.addEventListener("scroll", readAll, { passive: true });
  window.addEventListener("hashchange", readAll);
  document.addEventListener("focusin", function (event) {
    if (event.target.closest && event.target.closest("#table-chat")) readAll();
  });

  // Screen readers hear, politely, each new line of someone else's they have not muted.
  let seen = null;
  function announceNew() {
    const items = Array.from(document.querySelectorAll("#table-chat .chat-line[id]"));
    const region = document.getElementById("chat-announce");
    const fresh = seen === null ? [] : items.filter(function (li) {
      return !seen.has(li.id) && !li.hidden && li.querySelector("[data-mute]");
    });
    if (items.length || seen === null) seen = new Set(items.map(function (li) { return li.id; }));
    if (fresh.length && !chatInView()) {
      unread += fresh.length;
      showUnread();
    }
    if (!region || !fresh.length) return;
    region.textContent = fresh.map(function (li) {
      const author = li.querySelector(".chat-author").textContent;
      return author + " says: " + li.querySelector(".chat-text").textContent;
    }).join(" ");
  }

  document.addEventListener("htmx:wsAfterMessage", function () {
    const box = document.getElementById("chat-text");
    if (box && typing) box.value = typing;
    typing = null;
    apply();
    scrollToNewest();
    announceNew();
  });
  document.addEventListener("htmx:wsAfterSend", function (event) {
    if (event.target.id !== "chat-form") return;
    const box = document.getElementById("chat-text");
    if (box) box.value = "";
  });
  // The other tabs of this browser follow a mute at once.
  window.addEventListener("storage", function (event) {
    if (event.key !== KEY) return;
    list = muted();
    apply();
  });
  document.addEventListener("DOMContentLoaded", function () {
    apply();
    scrollToNewest();
    announceNew(); // what the page shows already is not news
  });
})();
