import { BadRequest } from '@feathersjs/errors';
import { describe, expect, it } from 'vitest';
import { entities } from '../../../domain/entities/index.ts';
import type { EntityDef } from '../../../domain/entities/types.ts';
import { contactFormSchema } from '../../../domain/forms/contact-form.ts';
import {
  BUSINESS_TYPES,
  CONSULTATION_TYPES,
  CUSTOMER_TYPES,
  enquirySchema,
  SALUTATIONS,
} from '../../../domain/forms/enquiry.ts';
import { FORM_MESSAGES, type FormErrors, formErrors, formSummary } from '../../../domain/forms/messages.ts';
import type { Locale } from '../../../domain/locales.ts';
import { translate } from '../../i18n.ts';
import { validateCreate } from '../entity/validate.ts';

/**
 * Every rule of the contact and enquiry forms, as the browser checks it (the form's schema) and as
 * the service answers it (the entity built from that schema), and every message in the three
 * languages. The English texts the spec gives (SPEC.md section 5) are its very words.
 */

const TEXTS: Record<string, Record<Locale, string>> = {
  // Spec, back-office messages: 'Required'.
  [FORM_MESSAGES.required]: { en: 'Required', 'zh-hk': '必填', 'zh-cn': '必填' },
  [FORM_MESSAGES.invalid]: { en: 'This value is not valid.', 'zh-hk': '此數值無效。', 'zh-cn': '该值无效。' },
  [FORM_MESSAGES.tooBig]: {
    en: 'This value is too large or too long.',
    'zh-hk': '數值太大或內容太長。',
    'zh-cn': '数值太大或内容太长。',
  },
  // Spec, enquiry form.
  [FORM_MESSAGES.email]: { en: 'Invalid email format.', 'zh-hk': '電郵格式無效。', 'zh-cn': '电子邮件格式无效。' },
  [FORM_MESSAGES.phone]: { en: 'Invalid phone format.', 'zh-hk': '電話號碼格式無效。', 'zh-cn': '电话号码格式无效。' },
  [FORM_MESSAGES.consent]: {
    en: 'Please agree to the Personal Information Collection Statement before submitting.',
    'zh-hk': '提交前請先同意《收集個人資料聲明》。',
    'zh-cn': '提交前请先同意《收集个人资料声明》。',
  },
  [FORM_MESSAGES.incomplete]: {
    en: 'Please complete enquiry form before submit.',
    'zh-hk': '請先填妥查詢表格再提交。',
    'zh-cn': '请先填妥查询表格再提交。',
  },
  // The contact form's summary (the spec has none: a failed call is only logged).
  [FORM_MESSAGES.failed]: {
    en: 'Please check the highlighted fields.',
    'zh-hk': '請檢查標示的欄位。',
    'zh-cn': '请检查标出的字段。',
  },
  // Spec, enquiry form: the success message.
  'forms.enquiry.success': {
    en: 'Submit Successfully. We will get back to you as soon as possible.',
    'zh-hk': '提交成功。我們會盡快回覆你。',
    'zh-cn': '提交成功。我们会尽快回复你。',
  },
  'forms.contact.success': {
    en: 'Thank you! We have your details and will contact you soon.',
    'zh-hk': '多謝！我們已收到你的資料，會盡快聯絡你。',
    'zh-cn': '谢谢！我们已收到你的资料，会尽快联系你。',
  },
};
const LANGUAGES: Locale[] = ['en', 'zh-hk', 'zh-cn'];

/** What the browser shows before sending: the form's schema, the first problem of each field. */
function browserErrors(
  schema: typeof contactFormSchema | typeof enquirySchema,
  input: Record<string, unknown>,
): FormErrors {
  const parsed = schema.safeParse(input);
  return parsed.success ? {} : formErrors(parsed.error, input);
}

/** What the service answers (before its messages are translated for the caller). */
function serverErrors(def: EntityDef, input: Record<string, unknown>): FormErrors {
  try {
    validateCreate(def, input);
    return {};
  } catch (error) {
    if (!(error instanceof BadRequest)) throw error;
    return error.errors as FormErrors;
  }
}

const text = (length: number) => 'x'.repeat(length);
const without = (input: Record<string, unknown>, field: string) =>
  Object.fromEntries(Object.entries(input).filter(([name]) => name !== field));

interface RuleCase {
  rule: string;
  /** Answers replacing the valid ones (`undefined`: the answer is left out). */
  change: Record<string, unknown>;
  /** The field's message key, or null when the answers pass. */
  key: string | null;
  /** Where the service reports a list's item, when not at the field itself. */
  serverField?: string;
}

function checkRules(
  name: string,
  schema: typeof contactFormSchema | typeof enquirySchema,
  def: EntityDef,
  valid: Record<string, unknown>,
  cases: RuleCase[],
) {
  describe(name, () => {
    it('passes complete, valid answers in the browser and on the server alike', () => {
      expect(browserErrors(schema, valid)).toEqual({});
      expect(serverErrors(def, valid)).toEqual({});
    });

    it.each(cases)('$rule', ({ change, key, serverField }) => {
      let input = { ...valid, ...change };
      for (const [field, value] of Object.entries(change)) if (value === undefined) input = without(input, field);
      const field = Object.keys(change)[0]!;
      expect(browserErrors(schema, input)).toEqual(key ? { [field]: key } : {});
      expect(serverErrors(def, input)).toEqual(key ? { [serverField ?? field]: key } : {});
      if (key)
        for (const locale of LANGUAGES) expect(translate(locale, key), `${key} in ${locale}`).toBe(TEXTS[key]![locale]);
    });
  });
}

const contact = { name: 'Ken Lee', phone: '+65 8123 4567', email: 'ken@lee.sg', companyName: 'Lee Hardware' };

/** Rules of a phone number, shared by both forms. */
const phoneCases = (field = 'phone'): RuleCase[] => [
  { rule: `${field}: required`, change: { [field]: undefined }, key: FORM_MESSAGES.required },
  { rule: `${field}: empty is required`, change: { [field]: '  ' }, key: FORM_MESSAGES.required },
  { rule: `${field}: letters are not a phone number`, change: { [field]: 'call me' }, key: FORM_MESSAGES.phone },
  { rule: `${field}: at least 6 digits`, change: { [field]: '12345' }, key: FORM_MESSAGES.phone },
  {
    rule: `${field}: at least 6 digits, separators not counted`,
    change: { [field]: '12 - - 34' },
    key: FORM_MESSAGES.phone,
  },
  { rule: `${field}: at most 15 digits`, change: { [field]: '1234567890123456' }, key: FORM_MESSAGES.phone },
  { rule: `${field}: a leading + only`, change: { [field]: '852+91234567' }, key: FORM_MESSAGES.phone },
  { rule: `${field}: 6 digits pass`, change: { [field]: '123456' }, key: null },
  {
    rule: `${field}: 15 digits, spaces, hyphens and a leading + pass`,
    change: { [field]: '+852 9123-4567 8901' },
    key: null,
  },
];

/** Rules of an email address, shared by both forms. */
const emailCases: RuleCase[] = [
  { rule: 'email: required', change: { email: undefined }, key: FORM_MESSAGES.required },
  { rule: 'email: empty is required', change: { email: ' ' }, key: FORM_MESSAGES.required },
  { rule: 'email: needs an @ and a domain', change: { email: 'ken.lee.sg' }, key: FORM_MESSAGES.email },
  { rule: 'email: needs a domain after the @', change: { email: 'ken@' }, key: FORM_MESSAGES.email },
  { rule: 'email: no spaces inside', change: { email: 'ken lee@lee.sg' }, key: FORM_MESSAGES.email },
  { rule: 'email: at most 254 characters', change: { email: `${text(250)}@lee.sg` }, key: FORM_MESSAGES.tooBig },
  { rule: 'email: surrounding spaces and capitals pass', change: { email: ' Ken@Lee.SG ' }, key: null },
];

const requiredTextCases = (field: string, max: number): RuleCase[] => [
  { rule: `${field}: required`, change: { [field]: undefined }, key: FORM_MESSAGES.required },
  { rule: `${field}: spaces only are required`, change: { [field]: '   ' }, key: FORM_MESSAGES.required },
  { rule: `${field}: not a number`, change: { [field]: 42 }, key: FORM_MESSAGES.invalid },
  { rule: `${field}: at most ${max} characters`, change: { [field]: text(max + 1) }, key: FORM_MESSAGES.tooBig },
  { rule: `${field}: ${max} characters pass`, change: { [field]: text(max) }, key: null },
];

checkRules('the contact form', contactFormSchema, entities.contactForms, contact, [
  ...requiredTextCases('name', 120),
  ...phoneCases(),
  ...emailCases,
  ...requiredTextCases('companyName', 200),
]);

const enquiry = {
  salutation: 'ms',
  firstName: 'Mei',
  lastName: 'Chan',
  companyName: 'Chan Noodles',
  customerType: 'new',
  businessType: 'restaurant',
  planNeeded: 'restaurant-flexi',
  contactMethods: ['email', 'phone'],
  email: 'mei@chan.hk',
  countryCode: '+852',
  phone: '9123 4567',
  consultationType: 'demonstration',
  personalDataConsent: true,
};

const choiceCases = (field: string, values: readonly string[]): RuleCase[] => [
  { rule: `${field}: required`, change: { [field]: undefined }, key: FORM_MESSAGES.required },
  { rule: `${field}: nothing chosen is required`, change: { [field]: '' }, key: FORM_MESSAGES.required },
  { rule: `${field}: only the choices offered`, change: { [field]: 'other-choice' }, key: FORM_MESSAGES.invalid },
  ...values.map((value) => ({ rule: `${field}: ${value} passes`, change: { [field]: value }, key: null })),
];

checkRules('the enquiry form', enquirySchema, entities.enquiries, enquiry, [
  ...choiceCases('salutation', SALUTATIONS),
  ...requiredTextCases('firstName', 60),
  ...requiredTextCases('lastName', 60),
  ...requiredTextCases('companyName', 200),
  ...choiceCases('customerType', CUSTOMER_TYPES),
  ...choiceCases('businessType', BUSINESS_TYPES),
  { rule: 'planNeeded: required', change: { planNeeded: undefined }, key: FORM_MESSAGES.required },
  { rule: 'planNeeded: empty is required', change: { planNeeded: '' }, key: FORM_MESSAGES.required },
  { rule: "planNeeded: a plan's key", change: { planNeeded: 'Restaurant Flexi' }, key: FORM_MESSAGES.invalid },
  { rule: 'planNeeded: a key of at most 64 characters', change: { planNeeded: text(65) }, key: FORM_MESSAGES.invalid },
  { rule: 'companyWebsite: optional', change: { companyWebsite: undefined }, key: null },
  { rule: 'companyWebsite: left blank is not given', change: { companyWebsite: ' ' }, key: null },
  { rule: 'companyWebsite: a host name passes', change: { companyWebsite: 'chan-noodles.hk' }, key: null },
  {
    rule: 'companyWebsite: an http(s) address with a path passes',
    change: { companyWebsite: 'https://www.chan-noodles.hk:8443/menu?lang=en' },
    key: null,
  },
  { rule: 'companyWebsite: a web address', change: { companyWebsite: 'our noodle shop' }, key: FORM_MESSAGES.invalid },
  {
    rule: 'companyWebsite: http or https only',
    change: { companyWebsite: 'ftp://chan-noodles.hk' },
    key: FORM_MESSAGES.invalid,
  },
  {
    rule: 'companyWebsite: at most 300 characters',
    change: { companyWebsite: `https://chan.hk/${text(290)}` },
    key: FORM_MESSAGES.tooBig,
  },
  { rule: 'contactMethods: required', change: { contactMethods: undefined }, key: FORM_MESSAGES.required },
  { rule: 'contactMethods: at least one', change: { contactMethods: [] }, key: FORM_MESSAGES.required },
  { rule: 'contactMethods: each once', change: { contactMethods: ['email', 'email'] }, key: FORM_MESSAGES.invalid },
  {
    rule: 'contactMethods: only email and phone (the service names the item)',
    change: { contactMethods: ['fax'] },
    key: FORM_MESSAGES.invalid,
    serverField: 'contactMethods.0',
  },
  { rule: 'contactMethods: phone alone passes', change: { contactMethods: ['phone'] }, key: null },
  ...emailCases,
  { rule: 'countryCode: required', change: { countryCode: undefined }, key: FORM_MESSAGES.required },
  { rule: 'countryCode: empty is required', change: { countryCode: '' }, key: FORM_MESSAGES.required },
  { rule: 'countryCode: starts with +', change: { countryCode: '852' }, key: FORM_MESSAGES.phone },
  { rule: 'countryCode: at most 4 digits', change: { countryCode: '+85200' }, key: FORM_MESSAGES.phone },
  { rule: 'countryCode: +65 passes', change: { countryCode: '+65' }, key: null },
  ...phoneCases(),
  { rule: 'needDescription: optional', change: { needDescription: undefined }, key: null },
  {
    rule: 'needDescription: at most 3000 characters',
    change: { needDescription: text(3001) },
    key: FORM_MESSAGES.tooBig,
  },
  {
    rule: 'customFeatures: at most 3000 characters',
    change: { customFeatures: text(3001) },
    key: FORM_MESSAGES.tooBig,
  },
  { rule: 'advancedFeatures: optional', change: { advancedFeatures: undefined }, key: null },
  {
    rule: "advancedFeatures: modules' keys (the service names the item)",
    change: { advancedFeatures: ['Kitchen Display'] },
    key: FORM_MESSAGES.invalid,
    serverField: 'advancedFeatures.0',
  },
  {
    rule: 'advancedFeatures: at most 50',
    change: { advancedFeatures: Array.from({ length: 51 }, (_, i) => `module-${i}`) },
    key: FORM_MESSAGES.tooBig,
  },
  ...choiceCases('consultationType', CONSULTATION_TYPES),
  { rule: 'personalDataConsent: required', change: { personalDataConsent: undefined }, key: FORM_MESSAGES.consent },
  { rule: 'personalDataConsent: must be given', change: { personalDataConsent: false }, key: FORM_MESSAGES.consent },
  {
    rule: "personalDataConsent: a checkbox's text is not consent",
    change: { personalDataConsent: 'on' },
    key: FORM_MESSAGES.consent,
  },
]);

describe('the message above a form that did not pass', () => {
  it('asks to complete the enquiry form when an answer is missing, whatever else is wrong', () => {
    const errors = serverErrors(entities.enquiries, {
      ...enquiry,
      firstName: '',
      email: 'nope',
      personalDataConsent: false,
    });
    expect(errors).toEqual({
      firstName: FORM_MESSAGES.required,
      email: FORM_MESSAGES.email,
      personalDataConsent: FORM_MESSAGES.consent,
    });
    expect(formSummary(errors, FORM_MESSAGES.incomplete)).toBe(FORM_MESSAGES.incomplete);
  });

  it('names the first problem when every answer is there', () => {
    expect(
      formSummary(
        serverErrors(entities.enquiries, { ...enquiry, phone: 'nope', email: 'nope' }),
        FORM_MESSAGES.incomplete,
      ),
    ).toBe(FORM_MESSAGES.email);
    expect(
      formSummary(
        serverErrors(entities.enquiries, { ...enquiry, personalDataConsent: false }),
        FORM_MESSAGES.incomplete,
      ),
    ).toBe(FORM_MESSAGES.consent);
  });

  it('asks to check the fields of the contact form when an answer is missing', () => {
    const errors = browserErrors(contactFormSchema, { ...contact, name: '' });
    expect(formSummary(errors, FORM_MESSAGES.failed)).toBe(FORM_MESSAGES.failed);
    expect(formSummary(browserErrors(contactFormSchema, { ...contact, phone: 'nope' }), FORM_MESSAGES.failed)).toBe(
      FORM_MESSAGES.phone,
    );
  });

  it.each(Object.keys(TEXTS))('%s reads the same as the spec in English and is translated', (key) => {
    for (const locale of LANGUAGES) expect(translate(locale, key), locale).toBe(TEXTS[key]![locale]);
  });
});

describe('answers the forms do not ask for', () => {
  it('are refused by the service and ignored by the browser check', () => {
    expect(serverErrors(entities.contactForms, { ...contact, fax: '1234' })).toEqual({
      fax: 'validation.unknownField',
    });
    expect(browserErrors(contactFormSchema, { ...contact, fax: '1234' })).toEqual({});
  });

  it('store email addresses in lower case and text without surrounding spaces', () => {
    expect(
      validateCreate(entities.contactForms, { ...contact, name: ' Ken Lee ', email: ' Ken@Lee.SG ' }),
    ).toMatchObject({ name: 'Ken Lee', email: 'ken@lee.sg' });
    expect(validateCreate(entities.enquiries, { ...enquiry, companyWebsite: '' }).companyWebsite).toBeUndefined();
  });
});
