import { describe, expect, it } from 'vitest';
import { SHIPPING_FIELDS, shippingErrors, shippingSchema } from './shipping.ts';

const complete = {
  contactPerson: 'Tan Mei Ling',
  contactNumber: '+65 9123 4567',
  street: '10 Anson Road',
  city: 'Singapore',
  zipcode: '079903',
  country: 'SG',
  shippingDate: '2026-08-03',
};

describe('the shipping details', () => {
  it('pass when complete, and the field list matches the schema', () => {
    expect(shippingErrors(complete)).toEqual({});
    expect(Object.keys(shippingSchema.shape).sort()).toEqual([...SHIPPING_FIELDS].sort());
  });

  it('name every missing answer, the date with its own message', () => {
    expect(shippingErrors({})).toEqual({
      contactPerson: 'validation.required',
      contactNumber: 'validation.required',
      street: 'validation.required',
      city: 'validation.required',
      zipcode: 'validation.required',
      country: 'validation.required',
      shippingDate: 'subscription.errors.chooseDate',
    });
  });

  it('need a postcode outside Hong Kong only, a phone number and a real country', () => {
    expect(shippingErrors({ ...complete, zipcode: undefined })).toEqual({ zipcode: 'validation.required' });
    expect(shippingErrors({ ...complete, country: 'HK', zipcode: undefined })).toEqual({});
    expect(shippingErrors({ ...complete, contactNumber: 'call me' })).toEqual({
      contactNumber: 'validation.phoneFormat',
    });
    expect(shippingErrors({ ...complete, country: 'FR' })).toEqual({ country: 'validation.invalid' });
    expect(shippingErrors({ ...complete, shippingDate: 'tomorrow' })).toEqual({
      shippingDate: 'subscription.errors.chooseDate',
    });
  });
});
