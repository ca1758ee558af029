import { describe, expect, it } from 'vitest';
import { formErrors } from '../forms/messages.ts';
import { isCalendarDate, isContactNumber, shippingSchema } from './shipping.ts';

const valid = {
  contactPerson: 'Mei Chan',
  contactNumber: '9123 4567',
  room: 'Flat 5A',
  street: '12 Nathan Road',
  district: 'Tsim Sha Tsui',
  city: 'Hong Kong',
  country: 'HK',
  shippingDate: '2026-03-10',
};

const errorsOf = (input: Record<string, unknown>) => {
  const parsed = shippingSchema.safeParse(input);
  return parsed.success ? {} : formErrors(parsed.error, input);
};

describe('the shipping address', () => {
  it('passes a complete Hong Kong address without a postcode', () => {
    expect(errorsOf(valid)).toEqual({});
  });

  it("asks 'Please choose a date.' when no date is chosen, and refuses days that do not exist", () => {
    expect(errorsOf({ ...valid, shippingDate: undefined })).toEqual({ shippingDate: 'purchase.chooseDate' });
    expect(errorsOf({ ...valid, shippingDate: '' })).toEqual({ shippingDate: 'purchase.chooseDate' });
    expect(errorsOf({ ...valid, shippingDate: '2026-04-31' })).toEqual({ shippingDate: 'purchase.chooseDate' });
    expect(errorsOf({ ...valid, shippingDate: '10/03/2026' })).toEqual({ shippingDate: 'purchase.chooseDate' });
  });

  it('requires the contact person, number, street, city and country', () => {
    const blank = { ...valid, contactPerson: ' ', contactNumber: '', street: '', city: '', country: '' };
    expect(errorsOf(blank)).toEqual({
      contactPerson: 'validation.required',
      contactNumber: 'validation.required',
      street: 'validation.required',
      city: 'validation.required',
      country: 'validation.required',
    });
  });

  it('ships only to Singapore, Hong Kong, Malaysia, Taiwan and Australia', () => {
    expect(errorsOf({ ...valid, country: 'US' })).toEqual({ country: 'validation.invalid' });
  });

  it('checks the contact number by the country', () => {
    expect(errorsOf({ ...valid, contactNumber: '1234 5678' })).toEqual({ contactNumber: 'validation.phoneFormat' });
    const sg = { ...valid, country: 'SG', city: 'Singapore', zipcode: '238801' };
    expect(errorsOf({ ...sg, contactNumber: '+65 8123 4567' })).toEqual({});
    expect(errorsOf({ ...sg, contactNumber: '9123 4567' })).toEqual({});
    expect(errorsOf({ ...sg, contactNumber: '5123 4567' })).toEqual({ contactNumber: 'validation.phoneFormat' });
    expect(isContactNumber('AU', '0412 345 678')).toBe(true);
    expect(isContactNumber('AU', '+61 2 9876 5432')).toBe(true);
    expect(isContactNumber('MY', '+60 12-345 6789')).toBe(true);
    expect(isContactNumber('TW', '02 2345 6789')).toBe(true);
    expect(isContactNumber('TW', '12')).toBe(false);
  });

  it('needs a postcode of the country outside Hong Kong', () => {
    const sg = { ...valid, country: 'SG', contactNumber: '81234567', city: 'Singapore' };
    expect(errorsOf(sg)).toEqual({ zipcode: 'validation.required' });
    expect(errorsOf({ ...sg, zipcode: '2388' })).toEqual({ zipcode: 'purchase.zipcodeFormat' });
    expect(errorsOf({ ...sg, zipcode: '238801' })).toEqual({});
  });

  it('refuses fields it does not know', () => {
    expect(shippingSchema.safeParse({ ...valid, floor: 3 }).success).toBe(false);
  });
});

describe('calendar dates', () => {
  it('knows leap days', () => {
    expect(isCalendarDate('2028-02-29')).toBe(true);
    expect(isCalendarDate('2027-02-29')).toBe(false);
  });
});
