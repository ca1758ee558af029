import type { APIRequestContext } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { expect, hydrated, test } from './fixtures.ts';
import { asAdmin } from './staff-api.ts';

const unique = (label: string) => `${label}-${randomBytes(4).toString('hex')}@example.test`;

async function expectStoredWithMail(request: APIRequestContext, service: string, email: string) {
  await expect
    .poll(async () => (await asAdmin(request, `${service}?email=${encodeURIComponent(email)}`)).data.length)
    .toBe(1);
  await expect
    .poll(
      async () => (await asAdmin(request, 'outbox?$limit=50')).data.some((mail) => String(mail.text).includes(email)),
      { timeout: 15_000 },
    )
    .toBe(true);
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? 'with JavaScript' : 'without JavaScript', () => {
    test.use({ javaScriptEnabled, allowedConsoleErrors: [/status of 400/] });

    test('the contact form refuses bad answers in Chinese, then is sent and stored', async ({ page, request }) => {
      await page.goto('/zh-hk');
      // With JavaScript, the form checks in the browser once hydrated (the first focus starts the
      // page's scripts); until then it posts to the server, as it does without.
      if (javaScriptEnabled) await hydrated(page, '[data-testid="contact-form"]');
      const form = page.getByTestId('contact-form');
      await form.getByLabel('姓名').fill('陳大文');
      await form.getByLabel('電郵').fill('not-an-email');
      await form.getByLabel('電話號碼').fill('12');
      await form.getByRole('button', { name: '提交' }).click();
      await expect(page.getByTestId('error-contact-email')).toHaveText('電郵格式無效。');
      await expect(page.getByTestId('error-contact-phone')).toHaveText('電話號碼格式無效。');
      await expect(page.getByTestId('error-contact-companyName')).toHaveText('必填');
      await expect(page.getByLabel('姓名')).toHaveValue('陳大文');
      await expect(page.getByLabel('電郵')).toHaveAttribute('aria-invalid', 'true');

      const email = unique('contact');
      await page.getByLabel('電郵').fill(email);
      await page.getByLabel('電話號碼').fill('9123 4567');
      await page.getByLabel('公司名稱').fill('陳記');
      await page.getByRole('button', { name: '提交' }).click();
      await expect(page.getByTestId('contact-form-confirmation')).toBeVisible();
      if (javaScriptEnabled) await expect(page.getByLabel('姓名')).toHaveValue('');
      await expectStoredWithMail(request, 'contactForms', email);
    });

    test('the enquiry form shows the spec messages in English, then thanks the visitor', async ({ page, request }) => {
      await page.goto('/en/enquiryForm?plan=restaurant-flexi');
      const form = page.getByTestId('enquiry-form');
      await expect(form.getByLabel('Plan needed')).toHaveValue('restaurant-flexi');
      await form.getByLabel('First name').fill('Mei');
      await page.locator('#email').fill('bad');
      await form.getByRole('button', { name: 'Submit' }).click();
      await expect(page.getByTestId('enquiry-summary')).toHaveText('Please complete enquiry form before submit.');
      await expect(page.getByTestId('error-email')).toHaveText('Invalid email format.');
      await expect(page.getByTestId('error-personalDataConsent')).toHaveText(
        'Please agree to the Personal Information Collection Statement before submitting.',
      );
      await expect(form.getByLabel('First name')).toHaveValue('Mei');
      // The first invalid field in the form's order takes the focus.
      await expect(page.getByRole('radio', { name: 'Mr.' })).toBeFocused();

      const email = unique('enquiry');
      await page.getByRole('radio', { name: 'Ms.' }).check();
      await form.getByLabel('Last name').fill('Chan');
      await form.getByLabel('Company name').fill('Chan Noodles');
      await page.getByRole('radio', { name: 'New customer' }).check();
      await page.getByRole('radio', { name: 'Restaurant' }).check();
      await page.getByRole('radio', { name: 'Free demonstration' }).check();
      await page.getByRole('checkbox', { name: 'Email' }).check();
      await page.locator('#email').fill(email);
      await form.getByLabel('Phone number').fill('91234567');
      await page.getByRole('checkbox', { name: /Personal Information Collection Statement/ }).check();
      await form.getByRole('button', { name: 'Submit' }).click();
      await expect(page.getByTestId('enquiry-success')).toHaveText(
        'Submit Successfully. We will get back to you as soon as possible.',
      );
      await expectStoredWithMail(request, 'enquiries', email);
    });
  });
}

for (const javaScriptEnabled of [true, false]) {
  test(`the enquiry form speaks Simplified Chinese, refuses, then is sent and stored (${javaScriptEnabled ? 'with' : 'without'} JavaScript)`, async ({
    browser,
    request,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled, locale: 'zh-CN' });
    const page = await context.newPage();
    await page.goto('/zh-cn/enquiryForm');
    const form = page.getByTestId('enquiry-form');
    await form.getByRole('button', { name: '提交' }).click();
    await expect(page.getByTestId('enquiry-summary')).toHaveText('请先填妥查询表格再提交。');

    const email = unique('enquiry-cn');
    await page.getByRole('radio', { name: '先生' }).check();
    await form.getByLabel('名字').fill('小明');
    await form.getByLabel('姓氏').fill('王');
    await form.getByLabel('公司名称').fill('王记茶餐厅');
    await page.getByRole('radio', { name: '新客户' }).check();
    await page.getByRole('radio', { name: '餐厅' }).check();
    await form.getByLabel('所需方案').selectOption({ index: 1 });
    await page.getByRole('radio', { name: '专业咨询' }).check();
    await page.getByRole('checkbox', { name: '电话' }).check();
    await page.locator('#email').fill(email);
    await form.getByLabel('电话号码').fill('91234567');
    await page.getByRole('checkbox', { name: /收集个人资料声明/ }).check();
    await form.getByRole('button', { name: '提交' }).click();
    await expect(page.getByTestId('enquiry-success')).toHaveText('提交成功。我们会尽快回复你。');
    await expectStoredWithMail(request, 'enquiries', email);
    await context.close();
  });
}

test('the contact form in English refuses a bad phone number, then is sent and stored', async ({ page, request }) => {
  await page.goto('/en');
  // The browser's checks: they move the focus to the field to fix.
  await hydrated(page, '[data-testid="contact-form"]');
  const form = page.getByTestId('contact-form');
  const email = unique('contact-en');
  await page.locator('#contact-name').fill('Mei Chan');
  await page.locator('#contact-email').fill(email);
  await page.locator('#contact-phone').fill('abc');
  await page.locator('#contact-companyName').fill('Chan Noodles');
  await form.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByTestId('error-contact-phone')).toHaveText('Invalid phone format.');
  await expect(page.locator('#contact-phone')).toBeFocused();
  await page.locator('#contact-phone').fill('+65 9123 4567');
  await form.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByTestId('contact-form-confirmation')).toBeVisible();
  await expectStoredWithMail(request, 'contactForms', email);
});

test('a contact form sent before its checks have loaded is held, checked, then sent', async ({ page, request }) => {
  await page.goto('/en');
  await hydrated(page, '[data-testid="contact-form"]');
  const email = unique('held');
  // Filled by script and submitted without any focus in the form: the schema is not loaded yet.
  await page.getByTestId('contact-form').evaluate((form: HTMLFormElement, address: string) => {
    const set = (name: string, value: string) => {
      const input = form.elements.namedItem(name) as HTMLInputElement;
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, value);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    };
    set('name', 'Held Chan');
    set('phone', '9123 4567');
    set('email', address);
    set('companyName', 'Held Ltd');
    form.requestSubmit();
  }, email);
  await expect(page.getByTestId('contact-form-confirmation')).toBeVisible();
  await expectStoredWithMail(request, 'contactForms', email);
});

test('a contact form with a bad answer sent before its checks have loaded shows the error and sends nothing', async ({
  page,
}) => {
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST') posts.push(request.url());
  });
  await page.goto('/en');
  await hydrated(page, '[data-testid="contact-form"]');
  await page.getByTestId('contact-form').evaluate((form: HTMLFormElement) => form.requestSubmit());
  await expect(page.getByTestId('contact-form-summary')).toBeVisible();
  await expect(page.getByTestId('error-contact-email')).toHaveText('Required');
  expect(posts).toEqual([]);
});
