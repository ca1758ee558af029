/**
 * The calculator and every form of the site in WebKit and Firefox (decision 016): each is used as
 * a visitor would, refused where the answers are wrong, then sent and found stored.
 */
import type { APIRequestContext } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { asAdmin } from '../staff-api.ts';
import { users } from '../users.ts';
import type { EngineTab } from './engines.ts';
import { DESKTOP, expect, hydrate, location, PHONE, test, until } from './fixtures.ts';

const unique = (label: string, engine: string) => `${label}-${engine}-${randomBytes(4).toString('hex')}@example.test`;

/** How many records a staff list holds for this email, read through the API as the seeded admin. */
async function storedCount(request: APIRequestContext, service: string, email: string): Promise<number> {
  return (await asAdmin(request, `${service}?email=${encodeURIComponent(email)}`)).data.length;
}

const text = (selector: string) => document.querySelector(selector)?.textContent?.trim() ?? null;
const exists = (selector: string) => document.querySelector(selector) !== null;

/** Waits until the element says this (a page between two documents, after a post, says nothing yet). */
async function expectText(tab: EngineTab, selector: string, expected: string) {
  const said = () => tab.evaluate(text, selector).catch(() => null);
  await expect.poll(said, { message: `${selector} says ${expected}` }).toBe(expected);
}

test('the calculator prices a plan with add-ons, by mouse and by keyboard, and keeps the choice in the address', async ({
  openTab,
}) => {
  const tab = await openTab(DESKTOP);
  await tab.goto('/en/pricing?industry=restaurant');
  await hydrate(tab);
  await expectText(tab, '[data-testid="monthly-total"]', 'HK$2,125');
  await expectText(tab, '[data-testid="prepaid-total"]', 'HK$51,000');

  await tab.click('input[name="addon"][value="online-shop"]');
  await expectText(tab, '[data-testid="monthly-total"]', 'HK$2,613');
  await tab.click('input[name="addon"][value="kiosk-self-order"]');
  await expectText(tab, '[data-testid="monthly-total"]', 'HK$3,201');
  // The kiosks' slider, by keyboard: two steps up from one.
  await tab.evaluate(() => document.querySelector<HTMLInputElement>('input[name="count-kiosk-self-order"]')?.focus());
  await tab.press('ArrowRight');
  await tab.press('ArrowRight');
  await expectText(tab, '[data-testid="monthly-total"]', 'HK$4,377');
  await until(tab, 'the choice is in the address', () =>
    window.location.search.includes('addons=online-shop%2Ckiosk-self-order%3A3'),
  );
  await tab.select('#months', '12');
  await expectText(tab, '[data-testid="prepaid-total"]', 'HK$52,524');

  await tab.goto(await location(tab));
  await expectText(tab, '[data-testid="monthly-total"]', 'HK$4,377');
  expect(
    await tab.evaluate(
      () => document.querySelector<HTMLInputElement>('input[name="addon"][value="online-shop"]')?.checked,
    ),
  ).toBe(true);
});

test('the calculator without scripts is a form the server prices', async ({ openTab }) => {
  const tab = await openTab({ ...DESKTOP, scripts: false });
  await tab.goto('/zh-hk/pricing?industry=restaurant');
  await tab.click('input[name="addon"][value="online-shop"]');
  await tab.click('[data-testid="calculator"] button[type="submit"]');
  await until(tab, 'the server has priced the choice', () => window.location.search.includes('addon=online-shop'));
  await expectText(tab, '[data-testid="monthly-total"]', 'HK$2,613');
});

test('the home page contact form refuses bad answers in Chinese, then is sent and stored', async ({
  openTab,
  request,
  engine,
}) => {
  const tab = await openTab(PHONE);
  await tab.goto('/zh-hk');
  await hydrate(tab);
  await tab.fill('#contact-name', '陳大文');
  await tab.fill('#contact-email', 'not-an-email');
  await tab.fill('#contact-phone', '12');
  await tab.click('[data-testid="contact-form"] button[type="submit"]');
  await expectText(tab, '[data-testid="error-contact-email"]', '電郵格式無效。');
  await expectText(tab, '[data-testid="error-contact-phone"]', '電話號碼格式無效。');
  expect(await tab.evaluate(() => document.querySelector<HTMLInputElement>('#contact-name')?.value)).toBe('陳大文');

  const email = unique('contact', engine);
  await tab.fill('#contact-email', email);
  await tab.fill('#contact-phone', '9123 4567');
  await tab.fill('#contact-companyName', '陳記');
  await tab.click('[data-testid="contact-form"] button[type="submit"]');
  await until(tab, 'the form thanks the visitor', exists, '[data-testid="contact-form-confirmation"]');
  await expect.poll(() => storedCount(request, 'contactForms', email)).toBe(1);
});

for (const scripts of [true, false]) {
  test(`the enquiry form refuses, then is sent and stored (${scripts ? 'with' : 'without'} scripts)`, async ({
    openTab,
    request,
    engine,
  }) => {
    const tab = await openTab({ ...PHONE, scripts });
    await tab.goto('/en/enquiryForm?plan=restaurant-flexi');
    if (scripts) await hydrate(tab);
    await tab.fill('#firstName', 'Mei');
    await tab.fill('#email', 'bad');
    await tab.click('[data-testid="enquiry-form"] button[type="submit"]');
    await expectText(tab, '[data-testid="enquiry-summary"]', 'Please complete enquiry form before submit.');
    await expectText(tab, '[data-testid="error-email"]', 'Invalid email format.');

    const email = unique('enquiry', engine);
    await tab.click('input[name="salutation"][value="ms"]');
    await tab.fill('#firstName', 'Mei');
    await tab.fill('#lastName', 'Chan');
    await tab.fill('#companyName', 'Chan Noodles');
    await tab.click('input[name="customerType"][value="new"]');
    await tab.click('input[name="businessType"][value="restaurant"]');
    await tab.click('input[name="consultationType"][value="demonstration"]');
    await tab.click('input[name="contactMethods"][value="email"]');
    await tab.fill('#email', email);
    await tab.fill('#phone', '91234567');
    await tab.click('input[name="personalDataConsent"]');
    await tab.click('[data-testid="enquiry-form"] button[type="submit"]');
    await expectText(
      tab,
      '[data-testid="enquiry-success"]',
      'Submit Successfully. We will get back to you as soon as possible.',
    );
    await expect.poll(() => storedCount(request, 'enquiries', email)).toBe(1);
  });
}

test('the contact form page is sent without scripts and stored', async ({ openTab, request, engine }) => {
  const tab = await openTab({ ...PHONE, scripts: false });
  await tab.goto('/en/contactForm');
  const email = unique('contact-page', engine);
  await tab.fill('#contact-name', 'Ann Tan');
  await tab.fill('#contact-email', email);
  await tab.fill('#contact-phone', '+65 9123 4567');
  await tab.fill('#contact-companyName', 'Kopi Co');
  await tab.click('[data-testid="contact-form"] button[type="submit"]');
  await until(tab, 'the page thanks the visitor', exists, '[data-testid="contact-form-confirmation"]');
  await expect.poll(() => storedCount(request, 'contactForms', email)).toBe(1);
});

test('the campaign newsletter form checks the email, then subscribes', async ({ openTab, request, engine }) => {
  const tab = await openTab(PHONE);
  await tab.goto('/en/campaign/sg23');
  await hydrate(tab);
  await tab.fill('#newsletter-name', 'Ann Tan');
  await tab.fill('#newsletter-companyName', 'Kopi Co');
  await tab.fill('#newsletter-email', 'ann@kopi');
  await tab.click('[data-testid="newsletter-form"] button[type="submit"]');
  await expectText(tab, '#newsletter-email-error', 'Please Input Correct Email !');

  const email = unique('newsletter', engine);
  await tab.fill('#newsletter-email', email);
  await tab.click('[data-testid="newsletter-form"] button[type="submit"]');
  await until(tab, 'the form thanks the visitor', exists, '[data-testid="newsletter-thanks"]');
  await expect.poll(() => storedCount(request, 'subscribers', email)).toBe(1);
});

test('the login form refuses a wrong password, then signs the member in', async ({ openTab }) => {
  const tab = await openTab(PHONE);
  await tab.goto('/en/login?from=%2Fen%2Fportal');
  await hydrate(tab);
  await tab.fill('#email', users.owner.email);
  await tab.fill('#password', 'Wrong-password-1');
  await tab.click('main form button[type="submit"]');
  await expectText(tab, '[data-testid="login-error"]', 'Incorrect email or password.');
  await tab.fill('#password', users.owner.password);
  await tab.click('main form button[type="submit"]');
  // Signing in hashes the password: seconds on a busy machine.
  await until(
    tab,
    'the member reaches the portal',
    () => window.location.pathname === '/en/portal' && document.querySelector('[data-testid="welcome"]') !== null,
  );
  await expectText(tab, '[data-testid="welcome"]', 'Welcome back, Mei Chan.');
});
