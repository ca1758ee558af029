import { BadRequest } from '@feathersjs/errors';
import { describe, expect, it } from 'vitest';
import { entities } from '../../../domain/entities/index.ts';
import { type FormErrors, formErrors } from '../../../domain/forms/messages.ts';
import { type NewsletterCampaign, newsletterFromForm, newsletterSchemas } from '../../../domain/forms/newsletter.ts';
import { validateCreate, validatePatch } from '../entity/validate.ts';

/**
 * The campaign newsletter forms' rules as the browser checks them (the campaign's schema) and as
 * the `subscribers` service answers them (the entity's fields from the same schema, and the
 * campaign's rule as its record rules): the same message for the same answers, whichever checks.
 */

/** What the browser shows for a form filled in with `filled`: its reader, then the campaign's schema. */
function browserErrors(campaign: NewsletterCampaign, filled: Record<string, string>): FormErrors {
  const answers = newsletterFromForm(new URLSearchParams(filled));
  const parsed = newsletterSchemas[campaign].safeParse(answers);
  return parsed.success ? {} : formErrors(parsed.error, answers);
}

/** What the service answers for the same form, posted by the page (before its messages are translated). */
function serverErrors(campaign: NewsletterCampaign, filled: Record<string, string>): FormErrors {
  try {
    validateCreate(entities.subscribers, { ...newsletterFromForm(new URLSearchParams(filled)), campaign });
    return {};
  } catch (error) {
    if (!(error instanceof BadRequest)) throw error;
    return error.errors as FormErrors;
  }
}

const singapore = { name: 'Ann Tan', companyName: 'Kopi Co', phone: '+65 9123 4567', email: 'ann@kopi.sg' };

const cases: { campaign: NewsletterCampaign; rule: string; filled: Record<string, string>; errors: FormErrors }[] = [
  { campaign: 'sg23', rule: 'four good answers pass', filled: singapore, errors: {} },
  { campaign: 'sg23', rule: 'the phone is optional', filled: { ...singapore, phone: '' }, errors: {} },
  {
    campaign: 'sg23',
    rule: 'a name and a company are required',
    filled: { email: 'a@b.sg' },
    errors: { name: 'validation.required', companyName: 'validation.required' },
  },
  {
    campaign: 'sg23',
    rule: 'an incomplete form has its phone and email checked',
    filled: { name: 'Ann', phone: '12345678', email: 'x' },
    errors: { companyName: 'validation.required', phone: 'newsletter.sgPhone', email: 'newsletter.sgEmail' },
  },
  {
    campaign: 'sg23',
    rule: 'an empty email reads the campaign message',
    filled: { ...singapore, phone: '', email: '' },
    errors: { email: 'newsletter.sgEmail' },
  },
  {
    campaign: 'sg23',
    rule: 'all four filled go through (the loose rule)',
    filled: { ...singapore, phone: '12345', email: 'ann' },
    errors: {},
  },
  {
    campaign: 'sg23',
    rule: 'a name within 120 characters',
    filled: { ...singapore, name: 'x'.repeat(121) },
    errors: { name: 'validation.tooBig' },
  },
  { campaign: '23hkrace', rule: 'an email is enough', filled: { email: 'mei@shop.hk' }, errors: {} },
  {
    campaign: '23hkrace',
    rule: 'an email that looks like one',
    filled: { name: 'Mei', email: 'mei@shop' },
    errors: { email: 'newsletter.invalidEmail' },
  },
  {
    campaign: '23hkrace',
    rule: 'an empty email reads the campaign message',
    filled: { email: '' },
    errors: { email: 'newsletter.invalidEmail' },
  },
];

describe('the newsletter forms in the browser and in the subscribers service', () => {
  it.each(cases)('$campaign: $rule', ({ campaign, filled, errors }) => {
    expect(browserErrors(campaign, filled)).toEqual(errors);
    expect(serverErrors(campaign, filled)).toEqual(errors);
  });

  it('stores what the form checked: the email trimmed and in lower case', () => {
    expect(validateCreate(entities.subscribers, { campaign: '23hkrace', email: ' Mei@Shop.HK ' })).toMatchObject({
      email: 'mei@shop.hk',
    });
  });

  it('refuses an unknown campaign by its field, and answers with no operator in the data', () => {
    expect(() => validateCreate(entities.subscribers, { campaign: 'other', email: 'a@b.hk' })).toThrow(BadRequest);
    expect(() => validateCreate(entities.subscribers, { campaign: '23hkrace', email: { $ne: null } })).toThrow(
      BadRequest,
    );
  });

  it('holds a patch to the campaign rules, read on the record the patch leaves', () => {
    const stored = { _id: 'sub1', campaign: 'sg23', ...singapore };
    expect(validatePatch(entities.subscribers, { phone: '+65 8123 4567' }, stored)).toEqual({ phone: '+65 8123 4567' });
    const refused = (patch: Record<string, unknown>) => {
      try {
        validatePatch(entities.subscribers, patch, stored);
        return {};
      } catch (error) {
        if (!(error instanceof BadRequest)) throw error;
        return error.errors as FormErrors;
      }
    };
    expect(refused({ name: null })).toEqual({ name: 'validation.required' });
    expect(refused({ name: null, email: 'ann@kopi' })).toEqual({
      name: 'validation.required',
      email: 'newsletter.sgEmail',
    });
    expect(refused({ campaign: '23hkrace', email: 'ann@kopi' })).toEqual({ email: 'newsletter.invalidEmail' });
  });
});
