import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { z } from '../../domain/zod.ts';
import { passwordSchema } from '../../domain/validation/password.ts';
import { paymentRequestSchema } from '../../domain/orders/payment-request.ts';
import { exampleOf, patchExampleOf } from './examples.ts';
import type { JsonSchema } from './registry.ts';

const ajv = new Ajv2020({ strict: false });
addFormats.default(ajv);
const valid = (schema: JsonSchema, value: unknown) => ajv.validate(schema, value);

describe('request examples', () => {
  it('writes the required fields of an object from their types, enums, formats and bounds', () => {
    const schema: JsonSchema = {
      type: 'object',
      required: ['email', 'kind', 'count', 'day', 'tags', 'phone', 'consent'],
      properties: {
        email: { type: 'string', minLength: 1, maxLength: 254 },
        kind: { type: 'string', enum: ['view', 'click'] },
        count: { type: 'integer', minimum: 3, maximum: 10 },
        day: { type: 'string', format: 'date' },
        tags: { type: 'array', minItems: 1, items: { type: 'string', pattern: '^[a-z0-9-]{1,64}$' } },
        phone: { type: 'string', pattern: '^\\+?\\d[\\d -]{4,18}\\d$' },
        consent: { type: 'boolean', const: true },
        note: { type: 'string' },
      },
    };
    const example = exampleOf(schema);
    expect(example).toEqual({
      email: 'chan.tai.man@example.com',
      kind: 'view',
      count: 3,
      day: '2026-12-01',
      tags: ['example'],
      phone: '+852 2345 6789',
      consent: true,
    });
    expect(valid(schema, example)).toBe(true);
  });

  it('meets every pattern of a zod schema (a password) and follows references', () => {
    const password = z.toJSONSchema(passwordSchema, { io: 'input' }) as JsonSchema;
    const schemas: Record<string, JsonSchema> = {
      Account: { type: 'object', required: ['password'], properties: { password } },
    };
    const example = exampleOf({ $ref: '#/components/schemas/Account' }, (schema) =>
      typeof schema.$ref === 'string' ? (schemas[schema.$ref.split('/').pop() ?? ''] ?? {}) : schema,
    );
    expect(valid(schemas.Account as JsonSchema, example)).toBe(true);
  });

  it('meets a rule that names which fields an object needs (one way to pay of two)', () => {
    const payment = z.toJSONSchema(paymentRequestSchema, { io: 'input' }) as JsonSchema;
    expect(payment.oneOf).toEqual([{ required: ['paymentMethodId'] }, { required: ['cardOnFile'] }]);
    const example = exampleOf(payment) as Record<string, unknown>;
    expect(valid(payment, example)).toBe(true);
    expect(example).toHaveProperty('paymentMethodId');
    expect(example).not.toHaveProperty('cardOnFile');
    expect(paymentRequestSchema.safeParse(example).success).toBe(true);
  });

  it('writes none where no candidate meets a pattern, rather than a wrong one', () => {
    expect(exampleOf({ type: 'string', pattern: '^Z{3}$' })).toBeUndefined();
    expect(
      exampleOf({ type: 'object', required: ['code'], properties: { code: { pattern: '^Z{3}$' } } }),
    ).toBeUndefined();
  });

  it('takes a patch’s fields from the create’s example, never a password', () => {
    const patch: JsonSchema = {
      type: 'object',
      properties: { name: { type: 'string' }, password: { type: 'string' }, $push: { type: 'object' } },
    };
    expect(patchExampleOf(patch, { name: 'Chan', password: 'Kowloon2026' })).toEqual({ name: 'Chan' });
    expect(patchExampleOf(patch, undefined)).toEqual({ name: 'example' });
  });
});
