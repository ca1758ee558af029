import { entities, type EntityName } from '../entities/index.ts';
import { STAFF_ROLES, type EntityDef, type Role } from '../entities/types.ts';
import { allows, CALLERS, type Caller } from './access.ts';
import { actionsFor, isAdminSource } from './screens.ts';

/*
 * The permission matrix as the README shows it, written from the definitions (their `access`,
 * `owner`, `publicWhere`, `writable` and `patchable`), so the table cannot say something the
 * services do not do: tests/unit/permission-matrix.test.ts holds the README to it, and the access
 * matrix test (tests/integration/access-matrix.test.ts) calls every cell through the API.
 */

export { allows, type Caller, CALLERS } from './access.ts';

const METHODS = ['find', 'get', 'create', 'patch', 'remove'] as const;
type Method = (typeof METHODS)[number];

const WORDS: Record<Method, string> = {
  find: 'list',
  get: 'read',
  create: 'create',
  patch: 'change',
  remove: 'delete',
};

/** Whether the owner rule narrows the method to the caller's own rows. */
function ownOnly(definition: EntityDef, method: Method, caller: Caller): boolean {
  if (!definition.owner || caller === 'anonymous' || method === 'create') return false;
  const { read, write } = definition.owner.allRows;
  return !(method === 'find' || method === 'get' ? read : write).includes(caller as Role);
}

/** What a caller may do on an entity, in words: `list own · read own · create`, or `—`. */
export function cell(definition: EntityDef, caller: Caller): string {
  const parts = METHODS.filter((method) => allows(definition.access[method], caller)).map((method) => {
    const own = ownOnly(definition, method, caller) ? ' own' : '';
    const published =
      (definition.publicWhere || definition.publicWindow) &&
      caller !== 'editor' &&
      caller !== 'admin' &&
      (method === 'find' || method === 'get')
        ? ` ${[...Object.values(definition.publicWhere ?? {}), ...(definition.publicWindow ? ['in its window'] : [])].join(', ')}`
        : '';
    return `${WORDS[method]}${own}${published}`;
  });
  return parts.length > 0 ? parts.join(' · ') : '—';
}

/** The fields only some roles write (`writable`) or change after create (`patchable`), grouped by rule. */
export function fieldRules(definition: EntityDef): string {
  const groups = new Map<string, string[]>();
  for (const [name, field] of Object.entries(definition.fields)) {
    const same = field.writable && field.patchable && field.writable.join() === field.patchable.join();
    const rules = [
      ...(field.writable ? [`written by ${field.writable.join(', ') || 'the server only'}`] : []),
      ...(field.patchable && !same
        ? [field.patchable.length > 0 ? `changed by ${field.patchable.join(', ')}` : 'kept as sent']
        : []),
    ];
    if (rules.length === 0) continue;
    const rule = rules.join(', ');
    groups.set(rule, [...(groups.get(rule) ?? []), `\`${name}\``]);
  }
  return [...groups].map(([rule, names]) => `${names.join(', ')}: ${rule}`).join('; ');
}

/**
 * The staff roles that export the entity's table from the back office (`POST /api/exports`,
 * decision 036): those its screen offers the export to, which the exports service asks too. Records
 * holding personal data are exported by admins only (decision 052).
 */
export function exporters(name: EntityName): string {
  const roles = isAdminSource(name) ? STAFF_ROLES.filter((role) => actionsFor(name, role).has('export')) : [];
  const marked = entities[name].personalData ? ' (personal data)' : '';
  return roles.length > 0 ? `${roles.join(', ')}${marked}` : '—';
}

/** The matrix as a Markdown table: an entity a row, a caller a column, who exports it, and the field rules. */
export function permissionMatrix(): string {
  const header = ['Service', ...CALLERS, 'Exported by', 'Fields only some roles write'];
  const rows = (Object.keys(entities) as EntityName[])
    .sort((a, b) => a.localeCompare(b))
    .map((name) => {
      const definition = entities[name];
      return [
        `\`${name}\``,
        ...CALLERS.map((caller) => cell(definition, caller)),
        exporters(name),
        fieldRules(definition) || '—',
      ];
    });
  return [header, header.map(() => '---'), ...rows].map((row) => `| ${row.join(' | ')} |`).join('\n');
}

export const MATRIX_START = '<!-- permission-matrix:start -->';
export const MATRIX_END = '<!-- permission-matrix:end -->';

/** The text between the README's markers replaced by the matrix. */
export function withMatrix(readme: string): string {
  const start = readme.indexOf(MATRIX_START);
  const end = readme.indexOf(MATRIX_END);
  if (start < 0 || end < start) throw new Error(`The README has no ${MATRIX_START} … ${MATRIX_END} block`);
  return `${readme.slice(0, start + MATRIX_START.length)}\n${permissionMatrix()}\n${readme.slice(end)}`;
}
