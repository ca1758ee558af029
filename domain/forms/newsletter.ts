import { z } from '../zod.ts';
import { optionalText, withRule } from './fields.ts';
import { FORM_MESSAGES, type FormErrors } from './messages.ts';
import { isNewsletterCampaign, type NewsletterCampaign, type NewsletterField } from './newsletter-fields.ts';

export * from './newsletter-fields.ts';

/**
 * The newsletter forms of the campaign microsites (spec section 5). Each answer has its own limits
 * (the schema below); what a campaign asks of the answers together is its rule, run by the browser
 * form (`newsletterSchemas`) and by the `subscribers` entity (its record rules) alike.
 */

/** Message keys of the campaigns' own rules; each exists in every locale. */
export const NEWSLETTER_MESSAGES = {
  sgPhone: 'newsletter.sgPhone',
  sgEmail: 'newsletter.sgEmail',
  invalidEmail: 'newsletter.invalidEmail',
} as const;

/** An optional 65 prefix (with or without +), then 8 digits starting 6, 8 or 9. */
export const SG_PHONE = /^(?:\+?65)?[689]\d{7}$/;
/** What a normal address looks like: something, @, a domain with a dot. */
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const compact = (phone: string) => phone.replace(/[\s-]/g, '');

export function isSingaporePhone(phone: string): boolean {
  return SG_PHONE.test(compact(phone));
}

export function isEmail(email: string): boolean {
  return EMAIL.test(email.trim());
}

/** Every answer a newsletter form may send, each within what the table keeps. The email is always answered. */
export const newsletterSchema = z.object({
  name: optionalText(120),
  companyName: optionalText(160),
  phone: optionalText(40),
  email: z.string().trim().max(254, FORM_MESSAGES.tooBig).toLowerCase(),
});

/** A form's answers as a rule reads them: checked by their own schemas, or a stored record. */
export type NewsletterAnswers = { readonly [K in NewsletterField]?: unknown };

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/**
 * The Singapore form (campaign sg23). Name and company are required. Its submit rule is loose, as
 * the spec has it: with all four fields filled the form goes through; otherwise the phone (when
 * given) and the email must pass their checks.
 */
export function singaporeRule(answers: NewsletterAnswers): FormErrors {
  const errors: FormErrors = {};
  const [name, companyName, phone, email] = [
    text(answers.name),
    text(answers.companyName),
    text(answers.phone),
    text(answers.email),
  ];
  if (!name) errors.name = FORM_MESSAGES.required;
  if (!companyName) errors.companyName = FORM_MESSAGES.required;
  if (name && companyName && phone && email) return errors;
  if (phone && !isSingaporePhone(phone)) errors.phone = NEWSLETTER_MESSAGES.sgPhone;
  if (!isEmail(email)) errors.email = NEWSLETTER_MESSAGES.sgEmail;
  return errors;
}

/** The Hong Kong campaign's form: an email is enough, a name is welcome. */
export function hongKongRule(answers: NewsletterAnswers): FormErrors {
  return isEmail(text(answers.email)) ? {} : { email: NEWSLETTER_MESSAGES.invalidEmail };
}

export const CAMPAIGN_RULES: Record<NewsletterCampaign, (answers: NewsletterAnswers) => FormErrors> = {
  sg23: singaporeRule,
  '23hkrace': hongKongRule,
};

/** The rule of the campaign a subscription names; one naming no campaign is refused by its own field. */
export function subscriptionRule(subscription: NewsletterAnswers & { readonly campaign?: unknown }): FormErrors {
  return isNewsletterCampaign(subscription.campaign) ? CAMPAIGN_RULES[subscription.campaign](subscription) : {};
}

/** Each campaign's form as the browser checks it: the answers' own limits, then the campaign's rule. */
export const newsletterSchemas: Record<NewsletterCampaign, typeof newsletterSchema> = {
  sg23: withRule(newsletterSchema, singaporeRule),
  '23hkrace': withRule(newsletterSchema, hongKongRule),
};
