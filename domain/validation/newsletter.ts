/**
 * The newsletter forms of the campaign microsites (spec section 5). Every message is a key of the
 * locale files; the browser and the server run these same checks.
 */
export interface NewsletterValues {
  name: string;
  companyName: string;
  phone: string;
  email: string;
}

export type NewsletterErrors = Partial<Record<keyof NewsletterValues, string>>;

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

/**
 * The Singapore form (campaign sg23). Name and company are required. Its submit rule is loose, as
 * the spec has it: with all four fields filled the form goes through; otherwise the phone (when
 * given) and the email must pass their checks.
 */
export function singaporeNewsletterErrors(values: NewsletterValues): NewsletterErrors {
  const errors: NewsletterErrors = {};
  const filled = (value: string) => value.trim().length > 0;
  if (!filled(values.name)) errors.name = 'validation.required';
  if (!filled(values.companyName)) errors.companyName = 'validation.required';
  if (filled(values.name) && filled(values.companyName) && filled(values.phone) && filled(values.email)) return errors;
  if (filled(values.phone) && !isSingaporePhone(values.phone)) errors.phone = 'newsletter.sgPhone';
  if (!isEmail(values.email)) errors.email = 'newsletter.sgEmail';
  return errors;
}

/** The Hong Kong campaign's form: an email is enough, a name is welcome. */
export function newsletterErrors(values: NewsletterValues): NewsletterErrors {
  return isEmail(values.email) ? {} : { email: 'newsletter.invalidEmail' };
}

export const NEWSLETTER_CAMPAIGNS = ['23hkrace', 'sg23'] as const;
export type NewsletterCampaign = (typeof NEWSLETTER_CAMPAIGNS)[number];

export function errorsFor(campaign: NewsletterCampaign, values: NewsletterValues): NewsletterErrors {
  return campaign === 'sg23' ? singaporeNewsletterErrors(values) : newsletterErrors(values);
}
