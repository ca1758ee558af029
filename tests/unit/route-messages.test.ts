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
const routeFiles = [
  ...new Set([...routes.matchAll(/'(routes\/[^']+\.tsx)'/g)].map((m) => path.join(ROOT, 'app', m[1]!))),
];

/** The groups a route module names for its loader to send. */
function declaredGroups(file: string | null): string[] {
  if (!file) return [];
  const declared = /export const messageGroups = \[([^\]]*)\]/.exec(readFileSync(file, 'utf8'))?.[1] ?? '';
  return [...declared.matchAll(/'(\w+)'/g)].map((m) => m[1]!);
}

/**
 * The layout route a page is nested in, when routes.ts nests it as `route('x', 'routes/x/layout.tsx', [...])`
 * and the page lives in that folder: the layout's loader sends its groups with every page under it.
 */
function parentLayout(file: string): string | null {
  const folder = path.relative(path.join(ROOT, 'app'), path.dirname(file));
  const layout = path.join(ROOT, 'app', folder, 'layout.tsx');
  if (layout === file || !new RegExp(`route\\('[^']+', '${folder}/layout\\.tsx', \\[`).test(routes)) return null;
  return layout;
}

describe('message groups per page', () => {
  it('the shell sends only groups that exist', () => {
    expect(SHELL_GROUPS.filter((group) => !allGroups.has(group))).toEqual([]);
  });

  for (const file of routeFiles) {
    const declared = declaredGroups(file);
    if (declared.length > 0) {
      it(`${path.relative(ROOT, file)} sends the groups it names from its loader`, () => {
        const source = readFileSync(file, 'utf8');
        expect(source).toMatch(/(?:pageMessages|plainMessages)\([^)]*messageGroups\)/);
      });
    }
    it(`${path.relative(ROOT, file)} receives every group it reads`, () => {
      const sent = new Set([...SHELL_GROUPS, ...declaredGroups(file), ...declaredGroups(parentLayout(file))]);
      const missing = [...groupsUsed(file)].filter((group) => !sent.has(group));
      expect(missing).toEqual([]);
    });
  }
});
