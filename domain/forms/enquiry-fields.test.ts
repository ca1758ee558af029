import { describe, expect, it } from 'vitest';
import { CONTACT_FORM_FIELDS } from './contact-form-fields.ts';
import { contactFormSchema } from './contact-form.ts';
import { ENQUIRY_FIELDS } from './enquiry-fields.ts';
import { enquirySchema } from './enquiry.ts';

describe('the field lists that pages ship without the schemas', () => {
  it('name every field of the enquiry schema, in its order', () => {
    expect([...ENQUIRY_FIELDS]).toEqual(Object.keys(enquirySchema.shape));
  });

  it('name every field of the contact form schema, in its order', () => {
    expect([...CONTACT_FORM_FIELDS]).toEqual(Object.keys(contactFormSchema.shape));
  });
});
