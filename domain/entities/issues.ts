import type { z } from '../zod.ts';
import { isMessageKey } from '../forms/messages.ts';

/** The value at a path of the input; zod does not report it (no `reportInput`), so it is looked up. */
export function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let node = input;
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}

/**
 * Maps a zod issue of an entity's schema to a message key that every locale translates: the same
 * in the service's answer and in the back office's editor before it sends anything. `isKey` says
 * whether a schema's own message is such a key (the server checks it against its catalogue).
 */
export function issueMessage(
  issue: z.core.$ZodIssue,
  input?: unknown,
  isKey: (message: string) => boolean = isMessageKey,
): string {
  if (isKey(issue.message)) return issue.message;
  if (issue.code !== 'unrecognized_keys') {
    const value = valueAt(input, issue.path);
    // Nothing given where a value is needed, whatever its kind (text, number, one of a list).
    if (value === undefined || value === null) return 'validation.required';
  }
  switch (issue.code) {
    case 'invalid_type':
      return 'validation.invalid';
    case 'too_small':
      return issue.origin === 'string' && issue.minimum === 1 ? 'validation.required' : 'validation.tooSmall';
    case 'too_big':
      return 'validation.tooBig';
    case 'invalid_format':
      return issue.format === 'email' ? 'validation.email' : 'validation.invalid';
    case 'unrecognized_keys':
      return 'validation.unknownField';
    default:
      return 'validation.invalid';
  }
}
