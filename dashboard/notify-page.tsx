/**
 * The notification settings page (issue #37, notify-routes.tsx): what a notification carries,
 * the person's devices with a Remove form each, the button that turns notifications on for the
 * device the page is open on, and the webhook form. Every form carries the session's CSRF token.
 *
 * The button works through the page script (app-scripts.ts): the element `#turn-on` hands it the
 * hub's public key (`data-key`), the token (`data-csrf`) and where the subscription goes
 * (`data-action`); the script shows the button once it knows the browser can take notifications.
 * A hub that cannot sign notifications (no secret store) says why instead of offering the button.
 */
import type { NotifySettings, PushDevice } from '../engine/contracts/notify.ts';
import { Layout } from './layout.tsx';
import { NOTIFICATIONS_PATH } from './nav.tsx';
import { hrefIn } from './root.ts';
import { line } from './shown.ts';
import { utc } from './when.ts';

const STYLE = `
input[type=url] { font: inherit; width: 100%; box-sizing: border-box; min-height: 2.75rem;
  padding: .3rem .5rem; border-radius: .4rem; }
ul.devices { list-style: none; padding: 0; }
ul.devices li { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1rem; padding: .5rem 0;
  border-bottom: 1px solid var(--line); }
ul.devices form { margin-left: auto; }
div.actions { display: flex; flex-wrap: wrap; gap: .5rem; margin-top: .75rem; }
`;

export interface NotifyPageProps {
  devices: PushDevice[];
  settings: NotifySettings;
  /** The hub's public VAPID key, or why the hub cannot sign notifications. */
  signing: { publicKey: string } | { unavailable: string };
  csrf: string;
  root: string;
}

export function NotifyPage(props: NotifyPageProps) {
  const { devices, settings, signing, csrf, root } = props;
  const here = hrefIn(root, NOTIFICATIONS_PATH);
  return (
    <Layout title="Notifications" root={root} current="notifications" style={STYLE}>
      <h1>Notifications</h1>
      <p>
        When a run waits for your decision, the hub can tell you on your phone or computer. A notification
        names the tool and connection of the call that waits, why it asks, and a short preview of its
        arguments, with the hub’s secrets left out. Opening it opens the run’s page here, where you decide as
        always: a notification never decides anything. One call gets one notification, and a decision made
        anywhere closes the others’ the next time they open the dashboard.
      </p>

      <section aria-labelledby="devices">
        <h2 id="devices">Devices</h2>
        {devices.length === 0 ? (
          <p>No device gets notifications yet.</p>
        ) : (
          <ul class="devices">
            {devices.map((device) => (
              <li>
                <span>
                  <strong>{line(device.label)}</strong>{' '}
                  <span class="muted">added {utc(device.createdAt)}</span>
                </span>
                <form method="post" action={`${here}/devices/${encodeURIComponent(device.id)}/remove`}>
                  <input type="hidden" name="csrf" value={csrf} />
                  <button type="submit" aria-label={`Remove ${line(device.label)}`}>
                    Remove
                  </button>
                </form>
              </li>
            ))}
          </ul>
        )}
        {'publicKey' in signing ? (
          <div id="turn-on" data-key={signing.publicKey} data-csrf={csrf} data-action={`${here}/devices`}>
            <button type="button" hidden>
              Turn on notifications on this device
            </button>
            <p role="status" aria-live="polite" class="muted">
              On a phone, add this page to the Home Screen first (on an iPhone or iPad, open it from there).
            </p>
          </div>
        ) : (
          <p role="alert">This hub cannot send notifications: {line(signing.unavailable)}.</p>
        )}
      </section>

      <section aria-labelledby="webhook">
        <h2 id="webhook">Webhook</h2>
        <p>
          The hub can also post each waiting call to a URL of yours (a chat’s incoming webhook, say): a JSON
          message with the same preview and a link to the call’s approval page. The link opens the page behind
          your sign-in; it never decides the call.
        </p>
        <p>{settings.webhook ? <>Now: {line(settings.webhook)}</> : 'No webhook is set.'}</p>
        <form method="post" action={`${here}/webhook`}>
          <input type="hidden" name="csrf" value={csrf} />
          <label for="webhook-url">Webhook URL (https only)</label>
          <input
            id="webhook-url"
            type="url"
            name="webhook"
            inputmode="url"
            placeholder="https://"
            value={settings.webhook ?? ''}
          />
          <div class="actions">
            <button type="submit" name="action" value="save">
              Save
            </button>
            <button type="submit" name="action" value="clear">
              Clear
            </button>
          </div>
        </form>
      </section>
    </Layout>
  );
}
