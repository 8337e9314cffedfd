// Fairway's one service worker, served at the site's root (/sw.js) so that its scope is
// the whole site. It is organised by what it does: each part below listens for its own
// events, and a new part (Web Push's "push" and "notificationclick") goes beside them.
//
// Offline: the pages a phone uses in the club room (a paper table's report, the
// night's check-in) open with no connection once visited. Only those pages, and the
// static files they load, are kept; every other request goes to the network as if
// there were no worker. A kept page is the signed-in player's own: it is fetched from
// the network first whenever there is one, dropped as soon as the network answers it
// with anything but the page, and every kept page goes when someone signs in or out.
"use strict";

// ---------------------------------------------------------------------------------
// The worker's life: a new version takes over at once and drops caches it no longer
// uses.
const SHELL_CACHE = "fairway-shell-v1";
const CACHES_IN_USE = [SHELL_CACHE];

self.addEventListener("install", function () {
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches
      .keys()
      .then(function (names) {
        return Promise.all(
          names
            .filter(function (name) { return CACHES_IN_USE.indexOf(name) < 0; })
            .map(function (name) { return caches.delete(name); })
        );
      })
      .then(function () { return self.clients.claim(); })
  );
});

// ---------------------------------------------------------------------------------
// Offline: the report and check-in pages' shell.
const SHELL_PAGES = [
  /^\/leagues\/report\/[A-Za-z0-9-]+\/$/,
  /^\/leagues\/nights\/\d+\/check-in\/$/,
];
const STATIC_PREFIX = "/static/";
// Signing in, out or up (here or at the admin's door) changes whose pages these are:
// none kept may outlive it.
const ACCOUNT_CHANGES = /^\/(?:accounts\/|admin\/log(?:in|out)\/)/;

function isShellPage(path) {
  return SHELL_PAGES.some(function (pattern) { return pattern.test(path); });
}

function fromShellPage(referrer) {
  if (!referrer) {
    return false;
  }
  const url = new URL(referrer);
  return url.origin === self.location.origin && isShellPage(url.pathname);
}

// The static files a kept page loads (its scripts, styles and icons), kept with it so
// that it opens whole with no connection.
const ASSET = /(?:src|href)="(\/static\/[^"]+)"/g;

function keepAssets(cache, response) {
  return response.text().then(function (html) {
    const found = new Set();
    let match;
    while ((match = ASSET.exec(html)) !== null) {
      found.add(new URL(match[1], self.location.origin).href);
    }
    return Promise.all(
      Array.from(found).map(function (address) {
        return cache.match(address, { ignoreVary: true }).then(function (kept) {
          return kept || cache.add(address).catch(function () {});
        });
      })
    );
  });
}

// The network's answer when there is one (kept for next time if it is the page itself,
// dropped otherwise); the kept copy when there is none.
function networkFirst(request, key, keeps) {
  return caches.open(SHELL_CACHE).then(function (cache) {
    return fetch(request).then(
      function (response) {
        if (!(response.ok && response.status === 200 && !response.redirected)) {
          cache.delete(key);
        } else if (keeps) {
          cache.put(key, response.clone());
          if (isShellPage(new URL(key).pathname)) {
            keepAssets(cache, response.clone());
          }
        }
        return response;
      },
      function (error) {
        return cache.match(key, { ignoreVary: true }).then(function (kept) {
          if (kept) {
            return kept;
          }
          throw error;
        });
      }
    );
  });
}

function offlineFetch(event) {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) {
    return false;
  }
  if (request.method === "POST" && ACCOUNT_CHANGES.test(url.pathname)) {
    event.waitUntil(caches.delete(SHELL_CACHE));
    return false;
  }
  if (request.method !== "GET") {
    return false;
  }
  if (isShellPage(url.pathname)) {
    // Opened, or read again by its own script: kept as the page itself stands (without
    // a query, which opens a form on it), and offered for any query when offline.
    event.respondWith(networkFirst(request, url.origin + url.pathname, url.search === ""));
    return true;
  }
  if (url.pathname.indexOf(STATIC_PREFIX) === 0 && fromShellPage(request.referrer)) {
    event.respondWith(networkFirst(request, url.origin + url.pathname, true));
    return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------
// Every request passes each part in turn until one answers it; none answering, the
// browser fetches it as it would without a worker.
const FETCH_HANDLERS = [offlineFetch];

self.addEventListener("fetch", function (event) {
  FETCH_HANDLERS.some(function (handle) { return handle(event); });
});

// ---------------------------------------------------------------------------------
// Push: "your turn" notices pushed by the server (leagues/notify/push.py) to a device
// where the player turned them on (the account page, js/push.js). A push carries its
// notice's title, text, icon, the table's address and a tag per table, so that a later
// turn at the same table replaces the notice of the earlier one.
self.addEventListener("push", function (event) {
  let notice = {};
  try {
    notice = event.data ? event.data.json() : {};
  } catch (error) {
    notice = { body: event.data.text() };
  }
  event.waitUntil(
    self.registration.showNotification(notice.title || "Fairway", {
      body: notice.body || "",
      icon: notice.icon,
      tag: notice.tag,
      renotify: !!notice.tag,
      data: { url: notice.url || "/" },
    })
  );
});

// A click opens the table: the tab already showing it comes to the front, or a new one
// opens. Only the site's own addresses are opened.
function openNotice(address) {
  const url = new URL(address, self.location.origin);
  if (url.origin !== self.location.origin) {
    return Promise.resolve(null);
  }
  return self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (tabs) {
    const open = tabs.find(function (tab) { return tab.url === url.href; });
    return open ? open.focus() : self.clients.openWindow(url.href);
  });
}

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  event.waitUntil(openNotice((event.notification.data || {}).url || "/"));
});

// Signing in or out (or up) hands the browser to someone else, or to no one: its
// subscription, which names the player who turned it on, is dropped (the server
// forgets the device when it signs out, or when its push service next answers "gone").
const SIGN_IN_OR_OUT = /^\/(?:accounts\/(?:login|logout|signup)\/|admin\/log(?:in|out)\/)$/;

FETCH_HANDLERS.push(function pushFetch(event) {
  const url = new URL(event.request.url);
  if (event.request.method === "POST" && url.origin === self.location.origin &&
      SIGN_IN_OR_OUT.test(url.pathname)) {
    event.waitUntil(
      self.registration.pushManager.getSubscription().then(function (subscription) {
        return subscription && subscription.unsubscribe();
      })
    );
  }
  return false;
});
