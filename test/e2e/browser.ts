/**
 * The browser the end-to-end tests drive as a person: Debian's Chromium (or $CHROMIUM, or a usual
 * place) through playwright-core, launched with the flags the tests need.
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** The browser: $CHROMIUM, else Debian's chromium (what .ci/run installs), else a usual place. */
const CHROMIUM = [
  process.env.CHROMIUM,
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
].find((path): path is string => path !== undefined && path !== '' && existsSync(path));

/** Launches the browser, or says how to get one. */
export async function launchBrowser(): Promise<Browser> {
  if (!CHROMIUM) {
    throw new Error(
      'The browser tests need Chromium or Chrome: `apt-get install -y chromium` on Debian or Ubuntu (.ci/run does), or set CHROMIUM=/path/to/the/browser.',
    );
  }
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}
