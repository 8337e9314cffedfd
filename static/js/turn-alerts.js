// Turn alerts: when the table waits for this viewer, the tab's title and icon say so;
// a chime and a browser notification (for a hidden tab) follow if the player turned
// them on. The server decides whose turn it is (data-your-turn on #table-status).
(function () {
  const SOUND = "fairway.turnSound";
  const NOTIFY = "fairway.turnNotify";
  let plainTitle = null;
  let wasMine = null;
  let audio = null;

  function stored(key) {
    try { return localStorage.getItem(key) === "on"; } catch (e) { return false; }
  }
  function store(key, on) {
    try { localStorage.setItem(key, on ? "on" : "off"); } catch (e) { /* private mode */ }
  }
  function prefs() { return document.getElementById("turn-alerts"); }

  // The tab's icon is turn-count.js's: it shows the turn icon while this table waits on
  // the player (data-turn-icon), with the count of their tables waiting.
  function setIcon(mine, changed) {
    document.dispatchEvent(new CustomEvent("fairway:turn", { detail: { mine: mine, changed: changed } }));
  }

  function chime() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    audio = audio || new Context();
    const start = audio.currentTime;
    [660, 880].forEach(function (pitch, i) {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = pitch;
      gain.gain.setValueAtTime(0.15, start + i * 0.18);
      gain.gain.exponentialRampToValueAtTime(0.001, start + i * 0.18 + 0.16);
      tone.connect(gain).connect(audio.destination);
      tone.start(start + i * 0.18);
      tone.stop(start + i * 0.18 + 0.17);
    });
  }

  function notify(text) {
    if (!("Notification" in window) || Notification.permission !== "granted") return;
    const box = prefs();
    const note = new Notification("Your turn at Fairway", {
      body: text, tag: "fairway-turn", icon: box ? box.dataset.turnIcon : undefined,
    });
    note.onclick = function () { window.focus(); note.close(); };
  }

  function update() {
    const status = document.getElementById("table-status");
    if (!status) return;
    const mine = status.dataset.yourTurn === "yes";
    // The count of tables waiting ("(N) ", turn-count.js) stays first.
    const counted = /^\(\d+\) /.exec(document.title);
    if (plainTitle === null) plainTitle = document.title.replace(/^\(\d+\) /, "");
    document.title = (counted ? counted[0] : "") + (mine ? "Your turn · " : "") + plainTitle;
    if (mine !== wasMine) setIcon(mine, wasMine !== null);
    // Only a change alerts: a page opened on the player's turn is already in view.
    if (mine && wasMine === false) {
      const line = status.querySelector(".turn-line");
      const text = line ? line.textContent.trim() : "";
      if (stored(SOUND)) chime();
      if (stored(NOTIFY) && document.visibilityState === "hidden") notify(text);
    }
    wasMine = mine;
  }

  function setUp() {
    const box = prefs();
    if (box) {
      const sound = document.getElementById("alert-sound");
      const notes = document.getElementById("alert-notify");
      const note = box.querySelector(".alert-note");
      sound.checked = stored(SOUND);
      notes.checked = stored(NOTIFY) && "Notification" in window &&
        Notification.permission === "granted";
      sound.addEventListener("change", function () {
        store(SOUND, sound.checked);
        if (sound.checked) chime(); // a sample, and a gesture that lets audio play later
      });
      notes.addEventListener("change", function () {
        note.textContent = "";
        if (!notes.checked) { store(NOTIFY, false); return; }
        if (!("Notification" in window)) {
          notes.checked = false;
          note.textContent = "This browser cannot show notifications.";
          return;
        }
        // The browser asks the player once; after that its answer stands.
        const asked = Notification.permission === "default"
          ? Notification.requestPermission() : Promise.resolve(Notification.permission);
        asked.then(function (answer) {
          const granted = answer === "granted";
          notes.checked = granted;
          store(NOTIFY, granted);
          if (!granted) note.textContent = "Notifications are blocked for this site in the browser.";
        });
      });
    }
    update();
  }

  document.addEventListener("htmx:wsAfterMessage", update);
  document.addEventListener("DOMContentLoaded", setUp);
})();
