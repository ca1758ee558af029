import { BadRequest, GeneralError, NotAcceptable, PaymentError, Unavailable } from '@feathersjs/errors';
import { describe, expect, it } from 'vitest';
import { z } from '../../../domain/zod.ts';
import { FORM_MESSAGES } from '../../../domain/forms/messages';
import { checkForm, readAsSent, readForm } from './read-form';
import { refusalOf } from './refusal';

const schema = z.object({
  name: z.string().trim().min(1, FORM_MESSAGES.required),
  count: z.coerce.number().int(FORM_MESSAGES.invalid),
  tags: z.array(z.string()).default([]),
});

const post = (body: BodyInit, type?: string) =>
  new Request('http://localhost/en/form', {
    method: 'POST',
    body,
    ...(type ? { headers: { 'content-type': type } } : {}),
  });

describe('readForm', () => {
  it('reads a posted form field by field: a name given twice is a list', async () => {
    const form = new URLSearchParams([
      ['name', ' Ada '],
      ['count', '3'],
      ['tags', 'a'],
      ['tags', 'b'],
    ]);
    const read = await readForm(post(form), schema);
    expect(read).toEqual({
      ok: true,
      values: { name: 'Ada', count: 3, tags: ['a', 'b'] },
      input: { name: ' Ada ', count: '3', tags: ['a', 'b'] },
    });
  });

  it('reads a JSON body, and answers each field’s first problem as a message key', async () => {
    const read = await readForm(post(JSON.stringify({ name: '', count: 1.5 }), 'application/json'), schema);
    expect(read).toEqual({
      ok: false,
      errors: { name: FORM_MESSAGES.required, count: FORM_MESSAGES.invalid },
      input: { name: '', count: 1.5 },
    });
  });

  it('reads a body that is not an object as an empty form', async () => {
    const read = await readForm(post('[1, 2]', 'application/json'), schema);
    expect(read.ok).toBe(false);
    expect(read.input).toEqual({});
  });

  it('takes the form’s own reader when given one', async () => {
    const read = await readForm(post(new URLSearchParams({ first: 'Ada' })), schema, (form) => ({
      name: form.get('first'),
      count: '1',
    }));
    expect(read.ok && read.values).toEqual({ name: 'Ada', count: 1, tags: [] });
  });

  it('reads answers as sent for a schema with a fallback for each field', async () => {
    const asSent = z.object({ email: z.string().catch(''), from: z.string().catch('') });
    expect(await readAsSent(post(new URLSearchParams({ email: ' A@b.c ' })), asSent)).toEqual({
      email: ' A@b.c ',
      from: '',
    });
  });

  it('checks answers already read', () => {
    expect(checkForm(schema, { name: 'x', count: 2 })).toMatchObject({ ok: true, values: { name: 'x', count: 2 } });
  });
});

describe('refusalOf', () => {
  it('keeps a refusal’s status, message and field messages', () => {
    const refusal = refusalOf(new BadRequest('Check the form.', { errors: { name: 'Required.' } }));
    expect(refusal).toEqual({
      status: 400,
      refused: true,
      message: 'Check the form.',
      errors: { name: 'Required.' },
      data: {},
    });
    expect(refusalOf(new PaymentError('Declined.')).status).toBe(402);
    expect(refusalOf(new NotAcceptable('No.')).refused).toBe(true);
  });

  it('keeps a 503 (retry later) with its message and data', () => {
    const refusal = refusalOf(new Unavailable('Try again shortly.', { payment: 'p1' }));
    expect(refusal).toMatchObject({ status: 503, refused: false, message: 'Try again shortly.' });
    expect(refusal.data).toMatchObject({ payment: 'p1' });
  });

  it('answers a fault as a 500 with the generic message, never its internals', () => {
    expect(refusalOf(new GeneralError('database password wrong'))).toEqual({
      status: 500,
      refused: false,
      message: 'errors.generic',
      errors: {},
      data: {},
    });
    expect(refusalOf(new TypeError('x is undefined'))).toMatchObject({ status: 500, message: 'errors.generic' });
    expect(refusalOf('thrown text')).toMatchObject({ status: 500, message: 'errors.generic' });
  });
});
