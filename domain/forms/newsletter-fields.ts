import { type FormFields, textOf } from './messages.ts';

/*
 * The campaign newsletter forms' fields and how their answers are read, without the schema (see
 * enquiry-fields.ts): the campaign pages ship these and load the schema when the form is used.
 */

export const NEWSLETTER_CAMPAIGNS = ['23hkrace', 'sg23'] as const;
export type NewsletterCampaign = (typeof NEWSLETTER_CAMPAIGNS)[number];

export function isNewsletterCampaign(name: unknown): name is NewsletterCampaign {
  return (NEWSLETTER_CAMPAIGNS as readonly unknown[]).includes(name);
}

/** Every answer a newsletter form may hold, in the order the schema declares them. */
export const NEWSLETTER_FIELDS = ['name', 'companyName', 'phone', 'email'] as const;
export type NewsletterField = (typeof NEWSLETTER_FIELDS)[number];

/** The fields each campaign's form shows, in its order: Singapore asks for all four, Hong Kong a name and an email. */
export const CAMPAIGN_FIELDS: Record<NewsletterCampaign, readonly NewsletterField[]> = {
  sg23: NEWSLETTER_FIELDS,
  '23hkrace': ['name', 'email'],
};

/**
 * A newsletter form's answers from a browser form or a POST body. The email is always answered,
 * an empty one as empty text, so that it reads the campaign's own message rather than 'Required'.
 */
export function newsletterFromForm(form: FormFields): Record<string, unknown> {
  return {
    name: textOf(form, 'name'),
    companyName: textOf(form, 'companyName'),
    phone: textOf(form, 'phone'),
    email: textOf(form, 'email') ?? '',
  };
}
