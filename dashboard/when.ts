/**
 * Times as a page shows them: the moment in UTC (a page may be read in another time zone than the
 * hub's), and how far it is from now by the hub's clock. Pure: `now` is passed in.
 */

/** `2027-01-15 08:00 UTC`. */
export function utc(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** `in 2 h 5 min`, `in 40 s`, or `expired` once `ms` is past. */
export function untilNow(ms: number, now: number): string {
  const left = ms - now;
  if (left <= 0) return 'expired';
  const minutes = Math.floor(left / 60_000);
  if (minutes === 0) return `in ${Math.ceil(left / 1000)} s`;
  const hours = Math.floor(minutes / 60);
  return hours === 0 ? `in ${minutes} min` : `in ${hours} h ${minutes % 60} min`;
}
