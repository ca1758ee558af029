/**
 * Draws the brand's share image (public/og-image.png, 1200 x 630) and logo (public/logo.png,
 * 512 x 512) from HTML templates with Debian's Chromium: `npm run brand-images`.
 * Crawlers and link previews want PNG (most ignore SVG); the files are committed, so run this
 * again only when the brand (BRAND_NAME) or its colours change.
 */
import { chromium } from 'playwright-core';

const brand = process.env.BRAND_NAME ?? 'Tillpoint';
const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

// Flat colours keep the PNG small (a gradient made it 300 KB). The mark of app/components/layout/logo.tsx, in the colours of app/app.css.
const mark = (size: number) => `
  <svg viewBox="0 0 32 32" width="${size}" height="${size}" xmlns="http://www.w3.org/2000/svg">
    <rect width="32" height="32" rx="8" fill="#187a71"/>
    <path d="M9 10h14M16 10v13" stroke="white" stroke-width="3.2" stroke-linecap="round"/>
    <circle cx="23" cy="22" r="2.6" fill="#fbbf4d"/>
  </svg>`;

const shareImage = `<!doctype html><html><body style="margin:0">
  <div style="width:1200px;height:630px;box-sizing:border-box;padding:80px 96px;display:flex;flex-direction:column;justify-content:space-between;
              background:#134f4b;border-bottom:24px solid #fbbf4d;color:#fff;font-family:'DejaVu Sans',sans-serif">
    <div style="display:flex;align-items:center;gap:28px">${mark(112)}<span style="font-size:76px;font-weight:700;letter-spacing:-1px">${escape(brand)}</span></div>
    <div>
      <div style="font-size:58px;font-weight:700;line-height:1.15">POS and payments for<br>restaurants and shops</div>
      <div style="margin-top:28px;font-size:32px;color:#fbbf4d">Hong Kong · Singapore</div>
    </div>
  </div></body></html>`;

const logo = `<!doctype html><html><body style="margin:0;background:transparent">${mark(512)}</body></html>`;

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
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  await page.setViewportSize({ width: 1200, height: 630 });
  await page.setContent(shareImage);
  await page.screenshot({ path: 'public/og-image.png', type: 'png' });
  await page.setViewportSize({ width: 512, height: 512 });
  await page.setContent(logo);
  await page.screenshot({ path: 'public/logo.png', type: 'png', omitBackground: true });
} finally {
  await browser.close();
}
console.log('public/og-image.png and public/logo.png written');
