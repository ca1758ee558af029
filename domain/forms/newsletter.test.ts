import { describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import zhCn from '../../locales/zh-cn.json';
import zhHk from '../../locales/zh-hk.json';
import { formErrors, type FormErrors } from './messages.ts';
import {
  isEmail,
  isSingaporePhone,
  NEWSLETTER_FIELDS,
  newsletterFromForm,
  newsletterSchema,
  newsletterSchemas,
  subscriptionRule,
  type NewsletterCampaign,
  type NewsletterField,
} from './newsletter.ts';

type Values = Record<NewsletterField, string>;
const values = (over: Partial<Values>): Values => ({ name: '', companyName: '', phone: '', email: '', ...over });

/** What the browser shows for a campaign's form filled in with `filled`: its reader, then its schema. */
function errorsFor(campaign: NewsletterCampaign, filled: Values): FormErrors {
  const answers = newsletterFromForm(new URLSearchParams(filled));
  const parsed = newsletterSchemas[campaign].safeParse(answers);
  return parsed.success ? {} : formErrors(parsed.error, answers);
}

describe('the newsletter field list that pages ship without the schema', () => {
  it('names every field of the schema, in its order', () => {
    expect([...NEWSLETTER_FIELDS]).toEqual(Object.keys(newsletterSchema.shape));
  });
});

describe('the Singapore phone', () => {
  it('is an optional 65 prefix, then 8 digits starting 6, 8 or 9', () => {
    for (const ok of ['91234567', '81234567', '61234567', '6591234567', '+6591234567', '+65 9123 4567'])
      expect(isSingaporePhone(ok), ok).toBe(true);
    for (const bad of ['71234567', '9123456', '912345678', '+6571234567', '+85291234567', 'abcdefgh'])
      expect(isSingaporePhone(bad), bad).toBe(false);
  });
});

describe('the Singapore newsletter form', () => {
  it('requires name and company', () => {
    expect(errorsFor('sg23', values({ email: 'a@b.sg' }))).toEqual({
      name: 'validation.required',
      companyName: 'validation.required',
    });
  });

  it('checks phone and email when not all four are filled', () => {
    expect(errorsFor('sg23', values({ name: 'Ann', companyName: 'Kopi Co', email: 'ann@kopi.sg' }))).toEqual({});
    expect(errorsFor('sg23', values({ name: 'Ann', companyName: 'Kopi Co', email: 'not-an-email' }))).toEqual({
      email: 'newsletter.sgEmail',
    });
    expect(errorsFor('sg23', values({ name: 'Ann', companyName: '', phone: '12345678', email: 'x' }))).toEqual({
      companyName: 'validation.required',
      phone: 'newsletter.sgPhone',
      email: 'newsletter.sgEmail',
    });
  });

  it('lets all four filled through: the loose submit rule', () => {
    expect(errorsFor('sg23', values({ name: 'Ann', companyName: 'Kopi Co', phone: '12345', email: 'ann' }))).toEqual(
      {},
    );
  });
});

describe('the Hong Kong newsletter form', () => {
  it('needs an email that looks like one', () => {
    expect(errorsFor('23hkrace', values({ email: 'mei@shop.hk' }))).toEqual({});
    expect(errorsFor('23hkrace', values({ email: 'mei@shop' }))).toEqual({ email: 'newsletter.invalidEmail' });
  });
});

describe('the Singapore form, rule by rule', () => {
  const all = { name: 'Ann Tan', companyName: 'Kopi Co', phone: '+65 9123 4567', email: 'ann@kopi.sg' };

  it('passes four good answers, and leaves the phone optional', () => {
    expect(errorsFor('sg23', all)).toEqual({});
    expect(errorsFor('sg23', { ...all, phone: '' })).toEqual({});
    expect(errorsFor('sg23', { ...all, phone: '   ' })).toEqual({});
  });

  it('requires a name and a company, spaces alone not counting', () => {
    expect(errorsFor('sg23', { ...all, name: '  ' })).toMatchObject({ name: 'validation.required' });
    expect(errorsFor('sg23', { ...all, companyName: '' })).toMatchObject({ companyName: 'validation.required' });
  });

  it('checks a phone that is given while the form is not complete', () => {
    expect(errorsFor('sg23', { ...all, name: '', phone: '71234567' })).toEqual({
      name: 'validation.required',
      phone: 'newsletter.sgPhone',
    });
    expect(errorsFor('sg23', { ...all, name: '', phone: '9123-4567' })).toEqual({ name: 'validation.required' });
  });

  it('checks the email while the form is not complete, an empty one included', () => {
    expect(errorsFor('sg23', { ...all, phone: '', email: '' })).toEqual({ email: 'newsletter.sgEmail' });
    expect(errorsFor('sg23', { ...all, phone: '', email: 'ann@kopi' })).toEqual({ email: 'newsletter.sgEmail' });
    expect(errorsFor('sg23', { ...all, phone: '', email: ' ann@kopi.sg ' })).toEqual({});
  });

  it('reads the phone without its spaces and hyphens', () => {
    for (const ok of ['9123 4567', '9123-4567', '+65 9123-4567', '65 6123 4567'])
      expect(isSingaporePhone(ok), ok).toBe(true);
    for (const bad of ['', '+65', '+65 5123 4567', '+6 5912 34567 8', '9123 456'])
      expect(isSingaporePhone(bad), bad).toBe(false);
  });
});

describe('the Hong Kong form, rule by rule', () => {
  it('needs nothing but an email address', () => {
    expect(errorsFor('23hkrace', { name: '', companyName: '', phone: '', email: 'mei@shop.hk' })).toEqual({});
    expect(
      errorsFor('23hkrace', { name: 'Mei', companyName: 'Shop', phone: 'anything', email: ' mei@shop.hk ' }),
    ).toEqual({});
  });

  it.each(['', '   ', 'mei', 'mei@', '@shop.hk', 'mei@shop', 'mei chan@shop.hk'])('refuses the email %j', (email) => {
    expect(errorsFor('23hkrace', { name: '', companyName: '', phone: '', email })).toEqual({
      email: 'newsletter.invalidEmail',
    });
    expect(isEmail(email)).toBe(false);
  });
});

describe('every campaign form', () => {
  it('keeps each answer within what the table holds', () => {
    expect(errorsFor('23hkrace', values({ name: 'x'.repeat(121), email: 'mei@shop.hk' }))).toEqual({
      name: 'validation.tooBig',
    });
    expect(errorsFor('sg23', values({ name: 'Ann', companyName: 'x'.repeat(161), email: 'ann@kopi.sg' }))).toEqual({
      companyName: 'validation.tooBig',
    });
    expect(
      errorsFor('sg23', values({ name: 'Ann', companyName: 'Kopi Co', phone: '9'.repeat(41), email: 'ann@kopi.sg' })),
    ).toMatchObject({ phone: 'validation.tooBig' });
  });

  it('answers the email trimmed and in lower case, as it is stored', () => {
    const parsed = newsletterSchemas['23hkrace'].parse(
      newsletterFromForm(new URLSearchParams({ email: ' Mei@Shop.HK ' })),
    );
    expect(parsed.email).toBe('mei@shop.hk');
  });
});

describe('the rule of a stored subscription', () => {
  it("is its campaign's, and reads empty fields as unanswered", () => {
    expect(
      subscriptionRule({ campaign: 'sg23', name: null, companyName: 'Kopi Co', phone: null, email: 'ann@kopi.sg' }),
    ).toEqual({ name: 'validation.required' });
    expect(subscriptionRule({ campaign: '23hkrace', name: null, email: 'mei@shop' })).toEqual({
      email: 'newsletter.invalidEmail',
    });
  });

  it('leaves a record naming no known campaign to the campaign field', () => {
    expect(subscriptionRule({ campaign: 'other', email: 'x' })).toEqual({});
  });
});

describe('the newsletter messages', () => {
  const catalogues = { en, 'zh-hk': zhHk, 'zh-cn': zhCn } as const;
  const lookup = (tree: unknown, key: string) =>
    key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], tree);
  // The English texts the spec gives (SPEC.md sections 5 and 9) are its very words.
  const texts: Record<string, Record<keyof typeof catalogues, string>> = {
    'newsletter.sgPhone': {
      en: 'Please Input Correct +65 Phone Number !',
      'zh-hk': '請輸入正確的 +65 電話號碼！',
      'zh-cn': '请输入正确的 +65 电话号码！',
    },
    'newsletter.sgEmail': {
      en: 'Please Input Correct Email !',
      'zh-hk': '請輸入正確的電郵地址！',
      'zh-cn': '请输入正确的邮箱地址！',
    },
    'validation.required': { en: 'Required', 'zh-hk': '必填', 'zh-cn': '必填' },
    'newsletter.invalidEmail': {
      en: 'Please enter an email address such as name@company.com.',
      'zh-hk': '請輸入有效的電郵地址，例如 name@company.com。',
      'zh-cn': '请输入有效的邮箱地址，例如 name@company.com。',
    },
    'newsletter.thanks': { en: 'Thank you for subscribing!', 'zh-hk': '多謝訂閱！', 'zh-cn': '感谢订阅！' },
    'newsletter.thanksLead': {
      en: 'You will now receive updates and promotions directly to your inbox.',
      'zh-hk': '你將會直接在電郵收到最新消息及優惠。',
      'zh-cn': '你将直接在邮箱中收到最新资讯和优惠。',
    },
  };

  it.each(Object.keys(texts))('%s in English, Traditional and Simplified Chinese', (key) => {
    for (const locale of Object.keys(catalogues) as (keyof typeof catalogues)[])
      expect(lookup(catalogues[locale], key), locale).toBe(texts[key]![locale]);
  });

  it('covers every message the rules give', () => {
    const keys = new Set<string>();
    const samples = [
      { name: '', companyName: '', phone: '1', email: 'x' },
      { name: 'a', companyName: 'b', phone: '', email: '' },
    ];
    for (const campaign of ['sg23', '23hkrace'] as const)
      for (const values of samples) for (const key of Object.values(errorsFor(campaign, values))) keys.add(key);
    expect([...keys].sort()).toEqual([
      'newsletter.invalidEmail',
      'newsletter.sgEmail',
      'newsletter.sgPhone',
      'validation.required',
    ]);
  });
});
