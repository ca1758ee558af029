import { QUERY_CONTROLS } from '../services/entity/query.ts';

/**
 * Adds a condition that every record found must meet, whatever else the query asks for:
 * `{ status: 'draft' }` narrowed to `{ status: 'published' }` finds nothing.
 */
export function narrowQuery(
  query: Record<string, unknown> | undefined,
  condition: Record<string, unknown>,
): Record<string, unknown> {
  const control: Record<string, unknown> = {};
  const filter: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query ?? {})) (QUERY_CONTROLS.has(key) ? control : filter)[key] = value;
  return { ...control, $and: [condition, filter] };
}
