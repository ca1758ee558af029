/**
 * Screenshots of pages at phone and desktop widths, in both themes and every language, for
 * looking at what was built: `npm run screenshots -- [base URL] [path ...]`.
 * Paths are without their language (`/`, `/login`); pictures land in screenshots/.
 * Chromium takes them all; WebKit (Safari's engine, decision 016) takes them at phone width too
 * (`webkit-phone-…`), unless WEBKIT=0 or it is not installed.
 */
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { engineMissing, launchEngine } from '../tests/e2e/engines/engines.ts';

const [base = 'http://127.0.0.1:3000', ...given] = process.argv.slice(2);
const paths = given.length ? given : ['/', '/login', '/portal', '/campaign/sg23', '/no-such-page'];
const locales = (process.env.LOCALES ?? 'en,zh-hk,zh-cn').split(',');
const themes = (process.env.THEMES ?? 'light,dark').split(',') as ('light' | 'dark')[];
const widths = { phone: { width: 390, height: 844 }, desktop: { width: 1366, height: 900 } };

mkdirSync('screenshots', { recursive: true });
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
  ],
});
try {
  for (const [device, viewport] of Object.entries(widths)) {
    for (const theme of themes) {
      const context = await browser.newContext({ viewport, colorScheme: theme, deviceScaleFactor: 1 });
      if (process.env.LOGIN) {
        const [email, password] = process.env.LOGIN.split(':');
        // A sign-in from the site's own origin sets the session cookie (whatever its name over
        // http or https); the context keeps it for the pages.
        const response = await context.request.post(`${base}/api/authentication`, {
          data: { strategy: 'local', email, password },
          headers: { origin: new URL(base).origin },
        });
        if (!response.ok()) throw new Error(`Sign-in as ${email} failed: ${response.status()}`);
      }
      const page = await context.newPage();
      for (const locale of locales) {
        for (const path of paths) {
          await page.goto(`${base}/${locale}${path === '/' ? '' : path}`, {
            waitUntil: (process.env.WAIT as 'load' | 'networkidle' | undefined) ?? 'networkidle',
          });
          const name = `${device}-${theme}-${locale}${path.replace(/\W+/g, '-')}`.replace(/-$/, '');
          await page.screenshot({ path: `screenshots/${name}.png`, fullPage: process.env.FULL === '1' });
          console.log(`screenshots/${name}.png`);
        }
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
}

const webkitMissing = process.env.WEBKIT === '0' ? 'WEBKIT=0' : engineMissing('webkit');
if (webkitMissing) {
  console.log(`No WebKit pictures (${webkitMissing}).`);
} else {
  const webkit = await launchEngine('webkit');
  try {
    const tab = await webkit.open({ origin: base, ...widths.phone, scripts: true });
    for (const theme of themes) {
      for (const locale of locales) {
        for (const path of paths) {
          const url = `/${locale}${path === '/' ? '' : path}`;
          // The theme the visitor chose, as the page's own script reads it before the first paint.
          await tab.goto(url);
          await tab.evaluate((chosen) => localStorage.setItem('theme', chosen), theme);
          await tab.goto(url);
          const name = `webkit-phone-${theme}-${locale}${path.replace(/\W+/g, '-')}`.replace(/-$/, '');
          await tab.screenshot(`screenshots/${name}.png`, { fullPage: process.env.FULL === '1' });
          console.log(`screenshots/${name}.png`);
        }
      }
    }
  } finally {
    await webkit.close();
  }
}
