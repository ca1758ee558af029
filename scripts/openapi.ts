/**
 * The API reference's checks (decision 058): writes the OpenAPI document of every caller to a
 * temporary folder and lints each with Redocly's recommended rules (`npm run lint:openapi`), or,
 * with `--write DIR`, only writes them there (`openapi.<caller>.json`).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { offlineDocuments } from '../server/openapi/offline.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const writeAt = process.argv.indexOf('--write');
const target =
  writeAt >= 0 ? path.resolve(process.argv[writeAt + 1] ?? '.') : mkdtempSync(path.join(os.tmpdir(), 'openapi-'));
mkdirSync(target, { recursive: true });
const files = Object.entries(offlineDocuments()).map(([caller, document]) => {
  const file = path.join(target, `openapi.${caller}.json`);
  writeFileSync(file, JSON.stringify(document, null, 2));
  return file;
});
if (writeAt >= 0) {
  console.log(`Written: ${files.join(', ')}`);
  process.exit(0);
}
const lint = spawnSync(
  path.join(ROOT, 'node_modules', '.bin', 'redocly'),
  ['lint', '--extends', 'recommended', '--config', path.join(ROOT, 'redocly.yaml'), ...files],
  { cwd: ROOT, encoding: 'utf8' },
);
rmSync(target, { recursive: true, force: true });
const output = `${lint.stdout}${lint.stderr}`;
process.stdout.write(output);
// A warning fails too: the only ones allowed are those redocly.yaml turns off, each with its reason.
const warned = /You have \d+ warnings?/.test(output);
if (warned)
  console.error('The API reference has warnings: fix them, or turn the rule off in redocly.yaml with a reason.');
process.exit(lint.status !== 0 || warned ? 1 : 0);
