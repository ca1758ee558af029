import type { HookContext, NextFunction } from '@feathersjs/feathers';
import type { EntityDef } from '../../domain/entities/types.ts';

export function hiddenFields(def: EntityDef): string[] {
  return Object.entries(def.fields)
    .filter(([, field]) => field.hidden)
    .map(([name]) => name);
}

function stripRecord(record: unknown, hidden: string[]): unknown {
  if (typeof record !== 'object' || record === null) return record;
  const copy = { ...(record as Record<string, unknown>) };
  for (const name of hidden) delete copy[name];
  return copy;
}

export function stripResult(result: unknown, hidden: string[]): unknown {
  if (hidden.length === 0) return result;
  if (Array.isArray(result)) return result.map((r) => stripRecord(r, hidden));
  if (typeof result === 'object' && result !== null && Array.isArray((result as { data?: unknown }).data)) {
    const page = result as { data: unknown[] };
    return { ...page, data: page.data.map((r) => stripRecord(r, hidden)) };
  }
  return stripRecord(result, hidden);
}

/**
 * Removes secret fields from what leaves the server: always from events (`dispatch`), and from
 * the result of any outside call. In-process callers (the local strategy) still see them.
 */
export function cleanOutput(def: EntityDef) {
  const hidden = hiddenFields(def);
  return async (context: HookContext, next: NextFunction) => {
    await next();
    if (hidden.length === 0) return;
    // A service's own rules may answer the caller less than the event carries (`dispatch`).
    context.dispatch = stripResult(context.dispatch ?? context.result, hidden);
    if (context.params.provider) context.result = stripResult(context.result, hidden);
  };
}
