import type { I18nText } from '../locales.ts';
import type { Seller } from '../orders/countries.ts';

/** The registrations a tax invoice names, each labelled by `invoices.pdf.registration.<kind>`. */
export type RegistrationKind = 'br' | 'uen' | 'gst';

export interface SellerDetails {
  /** The registered name, as the terms name the two companies; `{brand}` is the brand (`BRAND_NAME`). */
  legalName: string;
  /** The registered office, its lines apart (`\n`); in Chinese where the office has a Chinese address. */
  address: I18nText;
  /** What a tax invoice of that country must show beside the name and address. */
  registrations: { kind: RegistrationKind; number: string }[];
}

/**
 * The selling companies as their invoices name them (decision 029). A Hong Kong invoice shows the
 * company's Business Registration number; a Singapore tax invoice its UEN and GST registration
 * number (IRAS asks for the supplier's name, address and GST registration number on every tax
 * invoice). They change only with the companies themselves, so they live here, not in settings.
 */
export const SELLER_DETAILS: Record<Seller, SellerDetails> = {
  HK: {
    legalName: '{brand} Limited',
    address: {
      en: 'Unit 1203, 12/F, 88 Hoi Bun Road\nKwun Tong, Kowloon, Hong Kong',
      'zh-hk': '香港九龍觀塘海濱道88號12樓1203室',
      'zh-cn': '香港九龙观塘海滨道88号12楼1203室',
    },
    registrations: [{ kind: 'br', number: '71045826' }],
  },
  SG: {
    legalName: '{brand} Pte. Ltd.',
    // Singapore addresses are written in English.
    address: { en: '10 Anson Road, #20-05\nSingapore 079903' },
    registrations: [
      { kind: 'uen', number: '202312345K' },
      { kind: 'gst', number: '202312345K' },
    ],
  },
};

/** A seller's registered name for a brand. */
export function legalNameOf(seller: Seller, brand: string): string {
  return SELLER_DETAILS[seller].legalName.replace('{brand}', brand);
}
