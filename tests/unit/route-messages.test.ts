import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import { SHELL_GROUPS } from '../../app/i18n/groups';

/**
 * A page ships only the message groups it names (`messageGroups` in its route module) on top of
 * the shell's. This follows each route module's imports and fails when it, or a component it
 * uses, reads a group that neither the route nor the shell sends.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const allGroups = new Set(Object.keys(en));

function resolveImport(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [base, `${base}.tsx`, `${base}.ts`, path.join(base, 'index.ts')]) {
    if (existsSync(candidate) && !candidate.endsWith('.json') && /\.(ts|tsx)$/.test(candidate)) return candidate;
  }
  return null;
}

function groupsUsed(file: string, seen = new Set<string>()): Set<string> {
  const used = new Set<string>();
  if (seen.has(file) || !file.includes(`${path.sep}app${path.sep}`)) return used;
  seen.add(file);
  const source = readFileSync(file, 'utf8');
  for (const match of source.matchAll(/['"`]([a-zA-Z]+)\.[\w$.{}-]+['"`]/g)) {
    if (allGroups.has(match[1]!)) used.add(match[1]!);
  }
  for (const match of source.matchAll(/from '([^']+)'/g)) {
    const target = resolveImport(file, match[1]!);
    if (target) for (const group of groupsUsed(target, seen)) used.add(group);
  }
  return used;
}

const routes = readFileSync(path.join(ROOT, 'app/routes.ts'), 'utf8');
const routeFiles = [...new Set([...routes.matchAll(/'(routes\/[^']+\.tsx)'/g)].map((m) => path.join(ROOT, 'app', m[1]!)))];

describe('message groups per page', () => {
  it('the shell sends only groups that exist', () => {
    expect(SHELL_GROUPS.filter((group) => !allGroups.has(group))).toEqual([]);
  });

  for (const file of routeFiles) {
    it(`${path.relative(ROOT, file)} receives every group it reads`, () => {
      const source = readFileSync(file, 'utf8');
      const declared = /export const messageGroups = \[([^\]]*)\]/.exec(source)?.[1] ?? '';
      const sent = new Set([...SHELL_GROUPS, ...[...declared.matchAll(/'(\w+)'/g)].map((m) => m[1]!)]);
      const missing = [...groupsUsed(file)].filter((group) => !sent.has(group));
      expect(missing).toEqual([]);
    });
  }
});
