import type { LaunchOptions } from 'playwright-core';

/**
 * Debian's Chromium (`apt-get install chromium`), headless, without the background chatter that slows
 * a loaded machine further: how the browser tests and the browser benches launch it.
 */
export const CHROMIUM: LaunchOptions = {
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
  ],
};
