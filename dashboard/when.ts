/**
 * Times as a page shows them: the moment in UTC (a page may be read in another time zone than the
 * hub's), how far it is from now by the hub's clock, and how long something took. Pure: `now`
 * is passed in.
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

/** How long something took: `850 ms`, `1.2 s`, `3 min 5 s`, `2 h 5 min`. */
export function span(ms: number): string {
  const whole = Math.max(0, Math.round(ms));
  if (whole < 1000) return `${whole} ms`;
  if (whole < 60_000) return `${(Math.floor(whole / 100) / 10).toString()} s`;
  const seconds = Math.floor(whole / 1000);
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 === 0 ? `${minutes} min` : `${minutes} min ${seconds % 60} s`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}
