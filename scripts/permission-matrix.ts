/**
 * Writes the permission matrix into the README from the entity definitions
 * (`npm run docs:permissions`); tests/unit/permission-matrix.test.ts fails while it is out of date.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { withMatrix } from '../domain/admin/permissions.ts';

const readme = fileURLToPath(new URL('../README.md', import.meta.url));
writeFileSync(readme, withMatrix(readFileSync(readme, 'utf8')));
console.log('README.md: permission matrix written.');
