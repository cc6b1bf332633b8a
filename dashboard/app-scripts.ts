/**
 * The two scripts of the installable dashboard (issue #37), as the text the hub serves (app-shell.ts):
 * no build step, so each is plain JavaScript in a string, checked by test/node/app-shell.test.ts.
 *
 * SERVICE_WORKER (`/sw.js`) shows a push message as a notification and opens the run's page when
 * it is pressed. A message is JSON `{ title, body, url, tag }` (engine/push/notifier.ts
 * `PushMessage`): `url` a path on the hub (`/runs/<runId>`), `tag` the pending input's id, so a
 * call has one notification. Pressing it opens the page, never decides: the page asks as always.
 *
 * PAGE_SCRIPT (`/app.js`, on every page of a dashboard with notifications) registers the service
 * worker; closes, on each page's view, the notifications of calls no longer waiting (the ids in
 * the body's `data-waiting`: a decision made anywhere closes the others' on their next view); and
 * on the notification settings page (notify-page.tsx) turns notifications on for this device:
 * the element `#turn-on` carries the hub's key (`data-key`), the session's CSRF token
 * (`data-csrf`) and where to post (`data-action`); the script asks the browser's permission,
 * subscribes with that key, posts the subscription with the token, then reloads the page.
 */

export const SERVICE_WORKER = `'use strict';
self.addEventListener('install', (event) => {
  event.waitUntil(self.skipWaiting());
});
self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});
self.addEventListener('push', (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = {};
  }
  const title = typeof message.title === 'string' ? message.title : 'A call waits for you';
  const url = typeof message.url === 'string' && message.url.startsWith('/') ? message.url : '/';
  const options = {
    body: typeof message.body === 'string' ? message.body : '',
    data: { url },
    icon: '/icon-192.png',
    requireInteraction: true,
  };
  if (typeof message.tag === 'string') options.tag = message.tag;
  event.waitUntil(self.registration.showNotification(title, options));
});
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const path = (event.notification.data && event.notification.data.url) || '/';
  const asked = new URL(path, self.location.origin);
  const target = asked.origin === self.location.origin ? asked : new URL('/', self.location.origin);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (!open) {
        await self.clients.openWindow(target.href);
        return;
      }
      let shown = open;
      try {
        shown = (await open.navigate(target.href)) || open;
      } catch {
        // A page this worker does not control cannot be navigated: open the run's page beside it.
        await self.clients.openWindow(target.href);
        return;
      }
      try {
        await shown.focus();
      } catch {
        // A browser may refuse focus; the page is open on the run all the same.
      }
    })(),
  );
});
`;

export const PAGE_SCRIPT = `'use strict';
(() => {
  if (!('serviceWorker' in navigator)) return;
  const registered = navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);

  // Close the notifications of calls decided since (here or anywhere else).
  const body = document.body;
  if (body && body.hasAttribute('data-waiting')) {
    const waiting = new Set((body.getAttribute('data-waiting') || '').split(' ').filter(Boolean));
    registered
      .then(() => navigator.serviceWorker.ready)
      .then((registration) => registration.getNotifications())
      .then((shown) => {
        for (const notification of shown) {
          if (notification.tag && !waiting.has(notification.tag)) notification.close();
        }
      })
      .catch(() => undefined);
  }

  const panel = document.getElementById('turn-on');
  if (!panel) return;
  const button = panel.querySelector('button');
  const status = panel.querySelector('[role=status]');
  const say = (text) => {
    if (status) status.textContent = text;
  };
  if (!button) return;
  if (!('PushManager' in window) || !('Notification' in window)) {
    say('This browser cannot receive notifications from a web page. On an iPhone or iPad, add this page'
      + ' to the Home Screen, open it from there, and come back to this page.');
    return;
  }
  button.hidden = false;
  button.addEventListener('click', async () => {
    button.disabled = true;
    say('Asking this browser…');
    try {
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') {
        throw new Error('Notifications are blocked for this site: allow them in this browser’s site'
          + ' settings, then press the button again.');
      }
      await registered;
      const registration = await navigator.serviceWorker.ready;
      const key = fromBase64url(panel.getAttribute('data-key') || '');
      let subscription = await registration.pushManager.getSubscription();
      if (subscription && !sameKey(subscription.options.applicationServerKey, key)) {
        await subscription.unsubscribe();
        subscription = null;
      }
      subscription = subscription
        || (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }));
      const keys = subscription.toJSON().keys || {};
      const form = new URLSearchParams({
        endpoint: subscription.endpoint,
        p256dh: keys.p256dh || '',
        auth: keys.auth || '',
        label: deviceLabel(navigator.userAgent),
        csrf: panel.getAttribute('data-csrf') || '',
      });
      const action = new URL(panel.getAttribute('data-action') || '', location.href);
      const response = await fetch(action, {
        method: 'POST',
        body: form,
        credentials: 'same-origin',
        headers: { accept: 'application/json' },
      });
      const answer = await response.json().catch(() => ({}));
      if (!response.ok) {
        throw new Error(answer.error || 'The hub did not record this device (status ' + response.status
          + '): reload the page and try again.');
      }
      say('Notifications are on for this device.');
      location.reload();
    } catch (error) {
      say(error instanceof Error && error.message ? error.message
        : 'Notifications could not be turned on: reload the page and try again.');
      button.disabled = false;
    }
  });

  function fromBase64url(text) {
    const base64 = text.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((text.length + 3) % 4);
    const bytes = atob(base64);
    return Uint8Array.from(bytes, (c) => c.charCodeAt(0));
  }

  function sameKey(kept, key) {
    if (!kept) return false;
    const a = new Uint8Array(kept);
    return a.length === key.length && a.every((byte, i) => byte === key[i]);
  }

  function deviceLabel(agent) {
    const browser = /Edg\\//.test(agent) ? 'Edge' : /Firefox\\//.test(agent) ? 'Firefox'
      : /SamsungBrowser\\//.test(agent) ? 'Samsung Internet' : /Chrome\\/|CriOS\\//.test(agent) ? 'Chrome'
      : /Safari\\//.test(agent) ? 'Safari' : 'A browser';
    const system = /Android/.test(agent) ? 'Android' : /iPhone/.test(agent) ? 'iPhone'
      : /iPad/.test(agent) ? 'iPad' : /Windows/.test(agent) ? 'Windows' : /Mac OS X/.test(agent) ? 'macOS'
      : /CrOS/.test(agent) ? 'ChromeOS' : /Linux/.test(agent) ? 'Linux' : '';
    return system ? browser + ' on ' + system : browser;
  }
})();
`;
