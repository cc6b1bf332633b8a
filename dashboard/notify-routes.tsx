/**
 * The notification settings' routes (issue #37), on a host with notifications (the hosted hub,
 * `DashboardDeps.notify`): `GET /settings/notifications` (notify-page.tsx); `POST
 * /settings/notifications/devices`, the page script's subscription of this device (form fields
 * `endpoint`, `p256dh`, `auth`, `label`, `csrf`), answered as JSON, `{ id }` or `{ error }`, for
 * the script; `POST /settings/notifications/devices/:id/remove`; and `POST
 * /settings/notifications/webhook` (`webhook`, `action` = save or clear). The two forms answer 303
 * back to the settings page.
 *
 * Only a dashboard session reaches them (403 for one run's). A POST checks the session's CSRF
 * token before anything is read or changed (the host checked its Origin first); a refusal says
 * what happened and what to do next, and nothing is recorded. Recording a device or the webhook
 * also notes the hub's origin as this request reached it: a webhook's links start from it.
 */
import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { NotifyDesk } from '../engine/desk/notify-desk.ts';
import { isHubError } from '../engine/errors.ts';
import { page } from './frame.tsx';
import { NOTIFICATIONS_PATH } from './nav.tsx';
import { NotifyPage, type NotifyPageProps } from './notify-page.tsx';
import { outOfDashboard, problem } from './reach.tsx';
import { dashboardRoot, hrefIn } from './root.ts';
import { checkCsrf, type DashboardEnv, reachesDashboard } from './session.ts';

/** What the routes ask of the notify desk (engine/desk/notify-desk.ts). */
export type NotifySettingsDesk = Pick<
  NotifyDesk,
  'publicKey' | 'devices' | 'subscribe' | 'remove' | 'settings' | 'setWebhook' | 'noteOrigin' | 'waiting'
>;

type Ctx = Context<DashboardEnv>;

/** A subscription is an endpoint (at most 2 KB), two keys, a label and a token; a webhook a URL. */
const FORM_LIMIT_BYTES = 8 * 1024;
const SETTINGS = `/${NOTIFICATIONS_PATH}`;

export function notifyRoutes(app: Hono<DashboardEnv>, notify: NotifySettingsDesk): void {
  const settingsHref = (c: Ctx) => hrefIn(dashboardRoot(c), NOTIFICATIONS_PATH);
  const back = (c: Ctx) => ({ href: settingsHref(c), label: 'Back to the notification settings' });
  const tooLarge = bodyLimit({
    maxSize: FORM_LIMIT_BYTES,
    onError: (c) =>
      problem(c as Ctx, {
        status: 413,
        title: 'Not a form of this page',
        what: 'The request was far larger than the form; nothing was changed.',
        next: 'Reload the notification settings and try again.',
      }),
  });

  app.get(SETTINGS, async (c) => {
    const refused = outOfDashboard(c, 'the notification settings');
    if (refused) return refused;
    let signing: NotifyPageProps['signing'];
    try {
      signing = { publicKey: await notify.publicKey() };
    } catch (error) {
      if (!isHubError(error, 'unavailable')) throw error;
      signing = { unavailable: error.message };
    }
    const props = { devices: notify.devices(), settings: notify.settings(), signing };
    return page(c, <NotifyPage {...props} csrf={c.get('session').csrf} root={dashboardRoot(c)} />);
  });

  const tooLargeForScript = bodyLimit({
    maxSize: FORM_LIMIT_BYTES,
    onError: (c) => c.json({ error: 'Not a subscription: reload the page and try again.' }, 413),
  });

  app.post(`${SETTINGS}/devices`, tooLargeForScript, async (c) => {
    const refuse = (status: 400 | 403, error: string) => c.json({ error }, status);
    if (!reachesDashboard(c.get('session'))) {
      return refuse(403, 'This page session reaches one run only: open the whole dashboard, then try again.');
    }
    const form = await c.req.parseBody();
    if (!checkCsrf(c.get('session'), form.csrf)) {
      return refuse(
        403,
        'The request did not carry this page’s token, so nothing was recorded: reload the page and try again.',
      );
    }
    const field = (name: string) => (typeof form[name] === 'string' ? form[name] : '');
    try {
      const device = notify.subscribe({
        endpoint: field('endpoint'),
        p256dh: field('p256dh'),
        auth: field('auth'),
        label: field('label'),
      });
      notify.noteOrigin(new URL(c.req.url).origin);
      return c.json({ id: device.id });
    } catch (error) {
      if (!isHubError(error, 'invalid_input')) throw error;
      return refuse(400, `This browser’s subscription was not recorded: ${error.message}.`);
    }
  });

  app.post(`${SETTINGS}/devices/:id/remove`, tooLarge, async (c) => {
    const refused = outOfDashboard(c, 'the notification settings or change them');
    if (refused) return refused;
    const form = await c.req.parseBody();
    if (!checkCsrf(c.get('session'), form.csrf)) return csrfRefused(c, 'Device not removed', back(c));
    try {
      notify.remove(c.req.param('id'));
    } catch (error) {
      if (!isHubError(error, 'not_found')) throw error;
      return problem(c, {
        status: 404,
        title: 'No such device',
        what: 'This hub has no such device: it was removed already, or never turned on; nothing was changed.',
        next: 'Go back to the notification settings: they list the devices that get notifications now.',
        back: back(c),
      });
    }
    return c.redirect(settingsHref(c), 303);
  });

  app.post(`${SETTINGS}/webhook`, tooLarge, async (c) => {
    const refused = outOfDashboard(c, 'the notification settings or change them');
    if (refused) return refused;
    const form = await c.req.parseBody();
    if (!checkCsrf(c.get('session'), form.csrf)) return csrfRefused(c, 'Webhook not changed', back(c));
    const origin = new URL(c.req.url).origin;
    if (form.action === 'clear') {
      notify.setWebhook(undefined, origin);
      return c.redirect(settingsHref(c), 303);
    }
    const webhook = typeof form.webhook === 'string' ? form.webhook.trim() : '';
    if (form.action !== 'save' || webhook === '') {
      return problem(c, {
        status: 400,
        title: 'Webhook not changed',
        what: 'The form carried no webhook URL to save; nothing was changed.',
        next: 'Go back, type an https:// URL and press Save, or press Clear to have no webhook.',
        back: back(c),
      });
    }
    try {
      notify.setWebhook(webhook, origin);
    } catch (error) {
      if (!isHubError(error, 'invalid_input')) throw error;
      return problem(c, {
        status: 400,
        title: 'Webhook not changed',
        what: `Not saved: ${error.message}; nothing was changed.`,
        next: 'Go back and type the webhook’s https:// URL (the hub sends a call’s preview over https only).',
        back: back(c),
      });
    }
    return c.redirect(settingsHref(c), 303);
  });
}

function csrfRefused(c: Ctx, title: string, back: { href: string; label: string }) {
  return problem(c, {
    status: 403,
    title,
    what: 'The form did not carry this page session’s token, so it may not come from this page; nothing was changed.',
    next: `Reload the notification settings and try there; if that fails too, ${c.get('wording').openDashboard}.`,
    back,
  });
}
