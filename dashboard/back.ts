/**
 * Where a decision sends the browser back to: the page its form came from, named by the form's
 * `back` field. Only two names are accepted, never a URL, so no form can turn the decide route
 * into a redirect to another site (an open redirect); the route builds the address itself.
 */

/** The pages a decision form can come from. */
export type Back = 'run' | 'inbox';

/**
 * The page a form's `back` field names: the run's page when the field is absent (forms made
 * before it existed), `undefined` for anything but the two names (the route refuses the form).
 */
export function backOf(field: unknown): Back | undefined {
  if (field === undefined) return 'run';
  return field === 'run' || field === 'inbox' ? field : undefined;
}
