import { z } from '../zod.ts';
import { FORM_MESSAGES, formErrors, type FormErrors } from './messages.ts';
import { optionalText, phoneSchema, requiredText, withRule } from './fields.ts';
import { COUNTRIES_WITHOUT_ZIPCODE, SHIPPING_COUNTRIES, type ShippingCountry } from './shipping-fields.ts';

export * from './shipping-fields.ts';

/** 'Please choose a date.' (spec section 5). */
export const CHOOSE_DATE = 'subscription.errors.chooseDate';
/** 'Please fill in the blanks.': the summary of a form with missing answers (spec section 5). */
export const FILL_IN_BLANKS = 'subscription.errors.fillBlanks';
export const DATE_OUT_OF_RANGE = 'subscription.errors.dateOutOfRange';

/**
 * The shipping details. The date is checked for its form here; which days can be chosen is the
 * `deliveryDates` service's answer (working days of the shipping country), checked again by the
 * orders service.
 */
export const shippingSchema = withRule(
  z.object({
    contactPerson: requiredText(120),
    contactNumber: phoneSchema,
    room: optionalText(120),
    street: requiredText(200),
    district: optionalText(120),
    city: requiredText(120),
    zipcode: optionalText(20),
    country: z.enum(SHIPPING_COUNTRIES, {
      error: (issue) =>
        issue.input === undefined || issue.input === '' ? FORM_MESSAGES.required : FORM_MESSAGES.invalid,
    }),
    note: optionalText(500),
    shippingDate: z.string({ error: CHOOSE_DATE }).regex(/^\d{4}-\d{2}-\d{2}$/, CHOOSE_DATE),
  }),
  (answers): Record<string, string> =>
    !COUNTRIES_WITHOUT_ZIPCODE.includes(answers.country as ShippingCountry) && !answers.zipcode
      ? { zipcode: FORM_MESSAGES.required }
      : {},
);

/** The zipcode rule on its own: zod runs a schema's rule only once every answer has its type. */
function zipcodeError(answers: Record<string, unknown>): FormErrors {
  const country = answers.country;
  const needed = typeof country !== 'string' || !COUNTRIES_WITHOUT_ZIPCODE.includes(country as ShippingCountry);
  const given = typeof answers.zipcode === 'string' && answers.zipcode.trim() !== '';
  return needed && !given ? { zipcode: FORM_MESSAGES.required } : {};
}

/** Every problem of the answers, by field (message keys); empty when they pass. */
export function shippingErrors(answers: Record<string, unknown>): FormErrors {
  const parsed = shippingSchema.safeParse(answers);
  const errors = parsed.success ? {} : formErrors(parsed.error, answers);
  return { ...zipcodeError(answers), ...errors };
}

/** A date offered when it lies in the window `[first, last]` (YYYY-MM-DD strings compare as dates). */
export function dateInWindow(date: string, first: string, last: string): boolean {
  return date >= first && date <= last;
}
