import { z } from '../zod.ts';
import { optionalText, requiredText, withRule } from '../forms/fields.ts';
import { FORM_MESSAGES, type FormErrors } from '../forms/messages.ts';
import { isSingaporePhone } from '../forms/newsletter.ts';
import { SHIPPING_COUNTRIES, type ShippingCountry } from './countries.ts';

/** Message keys of the shipping step; each exists in every locale. */
export const SHIPPING_MESSAGES = {
  /** Spec section 5: 'Please choose a date.' */
  chooseDate: 'purchase.chooseDate',
  /** A date the delivery calendar does not offer (a holiday, too soon, too far). */
  dateUnavailable: 'purchase.dateUnavailable',
  zipcode: 'purchase.zipcodeFormat',
} as const;

const compact = (phone: string) => phone.replace(/[\s()-]/g, '');

/**
 * A contact number as dialled in the shipping country, with or without its country code:
 * Singapore as the spec has it (8 digits starting 6, 8 or 9), the others by their numbering plans.
 */
const PHONES: Record<ShippingCountry, (phone: string) => boolean> = {
  SG: isSingaporePhone,
  HK: (phone) => /^(?:\+?852)?[2-9]\d{7}$/.test(compact(phone)),
  MY: (phone) => /^(?:\+?60|0)\d{8,10}$/.test(compact(phone)),
  TW: (phone) => /^(?:\+?886|0)\d{8,9}$/.test(compact(phone)),
  AU: (phone) => /^(?:\+?61|0)[2-478]\d{8}$/.test(compact(phone)),
};

/** Postcodes by country; Hong Kong has none, so it may be left blank there. */
const ZIPCODES: Record<ShippingCountry, RegExp | null> = {
  SG: /^\d{6}$/,
  HK: null,
  MY: /^\d{5}$/,
  TW: /^\d{3}(?:\d{2,3})?$/,
  AU: /^\d{4}$/,
};

export function isContactNumber(country: ShippingCountry, phone: string): boolean {
  return PHONES[country](phone);
}

/** A calendar day written YYYY-MM-DD that exists (no 31 April). */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

const nothingGiven = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

const shippingFields = z
  .object({
    contactPerson: requiredText(120),
    contactNumber: z.string().trim().min(1, FORM_MESSAGES.required).max(32, FORM_MESSAGES.phone),
    room: optionalText(120),
    street: requiredText(300),
    district: optionalText(120),
    city: requiredText(120),
    zipcode: optionalText(12),
    country: z.enum(SHIPPING_COUNTRIES, {
      error: (issue) => (nothingGiven(issue.input) ? FORM_MESSAGES.required : FORM_MESSAGES.invalid),
    }),
    note: optionalText(1000),
    shippingDate: z
      .string({ error: SHIPPING_MESSAGES.chooseDate })
      .trim()
      .min(1, SHIPPING_MESSAGES.chooseDate)
      .refine(isCalendarDate, SHIPPING_MESSAGES.chooseDate),
  })
  .strict();

/** The rules that read the country: the contact number's and the postcode's formats. */
export function shippingRule(address: { country?: unknown; contactNumber?: unknown; zipcode?: unknown }): FormErrors {
  const errors: FormErrors = {};
  const country = address.country as ShippingCountry;
  if (!(SHIPPING_COUNTRIES as readonly string[]).includes(country)) return errors;
  if (
    typeof address.contactNumber === 'string' &&
    address.contactNumber &&
    !isContactNumber(country, address.contactNumber)
  ) {
    errors.contactNumber = FORM_MESSAGES.phone;
  }
  const zipcode = typeof address.zipcode === 'string' ? address.zipcode.trim() : '';
  const pattern = ZIPCODES[country];
  if (pattern && !zipcode) errors.zipcode = FORM_MESSAGES.required;
  else if (pattern && !pattern.test(zipcode)) errors.zipcode = SHIPPING_MESSAGES.zipcode;
  return errors;
}

/**
 * The shipping address of an order (spec section 3), checked the same in the browser and on the
 * server: who receives it and their number, where, the country (which decides the seller and the
 * currency) and the delivery day chosen. Whether that day is on offer is the server's check.
 */
export const shippingSchema = withRule(shippingFields, shippingRule).meta({
  // The rules that read the country are invisible to JSON Schema: the API's reference shows an
  // address that meets them (decision 058); whether its day is on offer depends on the day asked.
  examples: [
    {
      contactPerson: 'Chan Tai Man',
      contactNumber: '2345 6789',
      street: '1 Queen’s Road Central',
      city: 'Hong Kong',
      country: 'HK',
      shippingDate: '2026-12-01',
    },
  ],
});

export type ShippingAddress = z.output<typeof shippingSchema>;
export type ShippingInput = z.input<typeof shippingSchema>;
