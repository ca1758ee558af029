/**
 * Buying a plan in WebKit and Firefox (decision 016, issue 14): a new registrant walks the whole
 * subscription flow on a phone, from the order summary to the done page, with a reload in the
 * middle, the verification code from the mail and the sandbox gateway's card frame on its own
 * origin. The messages and the refusals of each step are tested in Chromium (purchase.spec.ts).
 */
import type { APIRequestContext } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { asAdmin } from '../staff-api.ts';
import type { EngineTab } from './engines.ts';
import { expect, hydrate, location, PHONE, test, until } from './fixtures.ts';

/** The six-digit code of the newest verification mail sent to an address. */
async function verificationCode(request: APIRequestContext, email: string): Promise<string> {
  let code = '';
  await expect
    .poll(
      async () => {
        const { data } = await asAdmin(request, `outbox?to=${encodeURIComponent(email)}&$sort[createdAt]=-1&$limit=1`);
        code = /\b(\d{6})\b/.exec(String(data[0]?.text ?? ''))?.[1] ?? '';
        return code;
      },
      { timeout: 30_000, message: 'the verification mail has been queued' },
    )
    .not.toBe('');
  return code;
}

const step = () => document.querySelector('[data-testid="subscription-flow"]')?.getAttribute('data-step') ?? null;

/** Waits until the flow shows this step (a step after a server call can take a while on a busy machine). */
async function expectStep(tab: EngineTab, name: string) {
  await expect
    .poll(() => tab.evaluate(step).catch(() => null), { message: `the flow shows its ${name} step`, timeout: 30_000 })
    .toBe(name);
  // A step's code loads when the buyer first gets there.
  await until(
    tab,
    `the ${name} step has loaded`,
    () => document.querySelector('[data-testid="step-loading"]') === null,
  );
}

const MESSAGES = {
  en: { card: 'VISA ending in 4242' },
  'zh-cn': { card: 'VISA，尾号 4242' },
} as const;

test('a new registrant buys a plan on a phone, from the order summary to the done page', async ({
  openTab,
  request,
  engine,
}) => {
  test.setTimeout(300_000);
  // One language per engine: both run every step, and between them two languages are walked.
  const lang = engine === 'webkit' ? 'en' : 'zh-cn';
  const email = `engine-buyer-${engine}-${randomBytes(4).toString('hex')}@example.test`;
  const password = 'Noodles and dumplings 2026';

  const tab = await openTab(PHONE);
  await tab.goto(`/${lang}/subscription?industry=restaurant&plan=restaurant-lite&addons=kds:2&months=24`);
  await hydrate(tab);
  await expectStep(tab, 'summary');
  await until(
    tab,
    'the server has priced the order',
    () => document.querySelector('[data-testid="summary-due"]')?.getAttribute('data-confirmed') === 'true',
  );
  expect(await tab.evaluate(() => document.querySelectorAll('[data-testid="summary-line"]').length)).toBe(2);
  const due = await tab.evaluate(() => document.querySelector('[data-testid="summary-due"]')?.textContent ?? '');
  await tab.click('[data-testid="step-continue"]');

  await expectStep(tab, 'shipping');
  await tab.fill('#ship-contactPerson', 'Chan Tai Man');
  await tab.fill('#ship-contactNumber', '2345 6789');
  await tab.fill('#ship-street', '1 Queen’s Road Central');
  await tab.fill('#ship-city', 'Hong Kong');
  // The delivery calendar of the country: the first day it offers.
  await until(
    tab,
    'the delivery dates have come',
    () => (document.querySelector<HTMLSelectElement>('#ship-shippingDate')?.options.length ?? 0) > 1,
  );
  const firstDate = await tab.evaluate(
    () => document.querySelector<HTMLSelectElement>('#ship-shippingDate')!.options[1]!.value,
  );
  await tab.select('#ship-shippingDate', firstDate);
  await tab.click('[data-testid="step-continue"]');

  // The flow survives a reload.
  await expectStep(tab, 'account');
  await tab.goto(await location(tab));
  await hydrate(tab);
  await expectStep(tab, 'account');
  // The step's form comes with its code, which a busy machine may still be fetching after the reload.
  await until(tab, 'the registration form shows', () => document.querySelector('#reg-email') !== null);

  await tab.fill('#reg-email', email);
  await tab.fill('#reg-name', 'Lee Siu Ming');
  await tab.fill('#reg-companyName', 'Siu Ming Bakery');
  await tab.fill('#reg-companyAddress', '2 Nathan Road, Kowloon');
  await tab.fill('#reg-phone', '2345 6789');
  await tab.fill('#reg-phoneConfirm', '2345 6789');
  await tab.fill('#reg-password', password);
  await tab.fill('#reg-passwordConfirm', password);
  await tab.click('[data-testid="register-submit"]');

  await expectStep(tab, 'verify');
  await tab.fill('#verify-code', await verificationCode(request, email));
  await tab.click('[data-testid="verify-submit"]');

  await expectStep(tab, 'payment');
  await until(
    tab,
    'the order is placed and the card frame is ready',
    () => document.querySelector('[data-testid="card-frame"]')?.getAttribute('data-ready') === 'true',
  );
  const number = await tab.evaluate(
    () => document.querySelector('[data-testid="payment-form"]')?.getAttribute('data-order') ?? '',
  );
  expect(number).not.toBe('');
  expect(await tab.evaluate(() => document.querySelector('[data-testid="payment-due"]')?.textContent ?? '')).toBe(due);
  await tab.fillInFrame('[data-testid="card-frame"]', '#number', '4242424242424242');
  await tab.fillInFrame('[data-testid="card-frame"]', '#expiry', '1234');
  await tab.fillInFrame('[data-testid="card-frame"]', '#cvc', '123');
  await tab.click('[data-testid="pay"]');

  // What the page says while it has not moved on, so a failure tells why.
  const progress = () =>
    tab
      .evaluate((prefix) => {
        if (window.location.pathname.startsWith(prefix)) return 'the done page';
        const pay = document.querySelector<HTMLButtonElement>('[data-testid="pay"]');
        const said = [...document.querySelectorAll('[role="alert"], [aria-live]')]
          .map((element) => element.textContent?.trim())
          .filter(Boolean);
        return `${window.location.pathname}: pay ${pay ? (pay.disabled ? 'disabled' : 'enabled') : 'absent'}; ${said.join(' | ')}`;
      }, `/${lang}/done/`)
      .catch(() => 'between pages');
  try {
    await expect.poll(progress, { message: 'the buyer reaches the done page', timeout: 20_000 }).toBe('the done page');
  } catch (error) {
    await tab.screenshot(test.info().outputPath('stuck.png'), { fullPage: true }).catch(() => undefined);
    throw error;
  }
  await until(
    tab,
    'the done page names the order',
    (expected) => document.querySelector('[data-testid="done-number"]')?.textContent === expected,
    number,
  );
  expect(await tab.evaluate(() => document.querySelector('[data-testid="done-card"]')?.textContent ?? '')).toBe(
    MESSAGES[lang].card,
  );
  expect(await tab.evaluate(() => document.querySelector('[data-testid="done-total"]')?.textContent ?? '')).toBe(due);
  expect(await tab.evaluate(() => localStorage.getItem('subscriptionForm'))).toBeNull();

  const orders = await asAdmin(request, `orders?number=${number}`);
  expect(orders.data).toHaveLength(1);
  const payments = await asAdmin(request, `payments?order=${String(orders.data[0]!._id)}`);
  expect(payments.data.map((payment) => payment.status)).toEqual(['succeeded']);
});
