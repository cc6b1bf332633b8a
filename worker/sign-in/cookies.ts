/**
 * Reading one cookie from a request's Cookie header, for the sign-in's two cookies, with Hono's
 * own cookie parser (the one `getCookie` uses on the dashboard) where no Hono context is at hand.
 */
import { parse } from 'hono/utils/cookie';

/** The value of cookie `name` on `request`, or undefined when it carries none. */
export function cookieValue(request: Request, name: string): string | undefined {
  const header = request.headers.get('cookie');
  return header ? parse(header, name)[name] : undefined;
}
