import type { HookContext, NextFunction } from '@feathersjs/feathers';

const WRITES = new Set(['create', 'patch', 'remove']);

function pick(record: unknown, names: readonly string[]): unknown {
  if (typeof record !== 'object' || record === null) return record;
  const whole = record as Record<string, unknown>;
  const picked: Record<string, unknown> = {};
  for (const name of ['_id', ...names]) if (name in whole) picked[name] = whole[name];
  return picked;
}

/**
 * `$select` on a write (decision 033, addendum): the caller is answered the fields it selected
 * and the id, as Feathers' adapters do, while the event others hear carries the whole record (as
 * clients may see it), which their tables and caches replace their copy with. Feathers sends a
 * caller `dispatch` when set, so the event is sent here, with the whole record, and the answer is
 * cut. The selection was checked with the query (an unknown field is a 400 before anything is written).
 */
export function selectOnWrites() {
  return async (context: HookContext, next: NextFunction): Promise<void> => {
    const selected = (context.params.query as { $select?: unknown } | undefined)?.$select;
    await next();
    if (!WRITES.has(context.method) || selected === undefined) return;
    const names = (Array.isArray(selected) ? selected : [selected]).filter((n): n is string => typeof n === 'string');
    const whole = context.dispatch ?? context.result;
    const event = context.event;
    if (event) {
      context.event = null;
      const { app, service, path, method, params, type } = context;
      const emitter = context.self as { emit(event: string, data: unknown, context: unknown): void };
      emitter.emit(event, whole, { app, service, path, method, params, type, event, result: whole, dispatch: whole });
    }
    context.result = pick(context.result, names);
    if (context.dispatch !== undefined) context.dispatch = pick(context.dispatch, names);
  };
}
