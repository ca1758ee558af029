import { type FormFields, textOf } from './messages.ts';

/**
 * The shipping details of an order (spec section 4, "checkout with shipping address"), without the
 * schema (shipping.ts holds it, loaded on demand, decision 012). The orders service stores the same
 * fields on `orders.shipping`.
 */
export const SHIPPING_FIELDS = [
  'contactPerson',
  'contactNumber',
  'room',
  'street',
  'district',
  'city',
  'zipcode',
  'country',
  'note',
  'shippingDate',
] as const;
export type ShippingField = (typeof SHIPPING_FIELDS)[number];

/** Where we ship: Singapore sells from the Singapore company in SGD, the others from Hong Kong in HKD. */
export const SHIPPING_COUNTRIES = ['SG', 'HK', 'MY', 'TW', 'AU'] as const;
export type ShippingCountry = (typeof SHIPPING_COUNTRIES)[number];

/** Hong Kong addresses have no postcode; everywhere else one is needed. */
export const COUNTRIES_WITHOUT_ZIPCODE: readonly ShippingCountry[] = ['HK'];

/** How far ahead a delivery can be booked (the `deliveryDates` service offers the days within it). */
export const DELIVERY_HORIZON_DAYS = 60;

export type ShippingInfo = Record<ShippingField, string>;

export const EMPTY_SHIPPING: ShippingInfo = Object.fromEntries(
  SHIPPING_FIELDS.map((field) => [field, '']),
) as ShippingInfo;

export function isShippingCountry(value: unknown): value is ShippingCountry {
  return typeof value === 'string' && (SHIPPING_COUNTRIES as readonly string[]).includes(value);
}

/** Stored or posted details, each a string (empty when missing), at most 500 characters. */
export function readShipping(source: Record<string, unknown>): ShippingInfo {
  const info = { ...EMPTY_SHIPPING };
  for (const field of SHIPPING_FIELDS) {
    const value = source[field];
    if (typeof value === 'string') info[field] = value.slice(0, 500);
  }
  if (info.country && !isShippingCountry(info.country)) info.country = '';
  return info;
}

/** The answers of a browser form or a POST body, empty ones left out (so the schema reads them as missing). */
export function shippingFromForm(form: FormFields): Record<string, unknown> {
  return Object.fromEntries(SHIPPING_FIELDS.map((name) => [name, textOf(form, name)]));
}

/** Every needed answer is there (a quick check for which step to show; the schema is the real check). */
export function shippingComplete(info: ShippingInfo): boolean {
  const needed: ShippingField[] = ['contactPerson', 'contactNumber', 'street', 'city', 'country', 'shippingDate'];
  if (!needed.every((field) => info[field].trim() !== '')) return false;
  if (!isShippingCountry(info.country)) return false;
  if (!COUNTRIES_WITHOUT_ZIPCODE.includes(info.country) && info.zipcode.trim() === '') return false;
  return /^\d{4}-\d{2}-\d{2}$/.test(info.shippingDate);
}
