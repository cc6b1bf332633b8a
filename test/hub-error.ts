/** The HubError that `body` throws (or rejects with); fails the test when it throws nothing or something else. */
import { expect } from 'vitest';
import { HubError } from '../engine/errors.ts';

export async function hubErrorOf(body: () => unknown): Promise<HubError> {
  try {
    await body();
  } catch (error) {
    expect(error, 'expected a HubError').toBeInstanceOf(HubError);
    return error as HubError;
  }
  throw new Error('expected a HubError, but nothing was thrown');
}

/** `code: message` of the HubError that `body` throws at once; anything else fails the test. */
export function refusalOf(body: () => unknown): string {
  try {
    body();
  } catch (error) {
    expect(error, 'expected a HubError').toBeInstanceOf(HubError);
    const refused = error as HubError;
    return `${refused.code}: ${refused.message}`;
  }
  throw new Error('expected a refusal, but nothing was thrown');
}
