/**
 * A client generated from the API's reference compiles (decision 058): writes an admin's document
 * (the largest) to a temporary folder, generates a fetch client from it with `@hey-api/openapi-ts`,
 * and type-checks it with a small use of it (`npm run openapi:client`).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { offlineDocuments } from '../server/openapi/offline.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'node_modules', '.bin');
const folder = mkdtempSync(path.join(os.tmpdir(), 'openapi-client-'));

const USAGE = `import { client } from './generated/client.gen';
import { authenticationCreate, industriesFind, industriesGet } from './generated/sdk.gen';
import type { Industries } from './generated/types.gen';

client.setConfig({ baseUrl: 'https://tillpoint.example' });

export async function firstIndustry(email: string, password: string): Promise<Industries | undefined> {
  const signIn = await authenticationCreate({ body: { strategy: 'local', email, password } });
  const token = signIn.data?.accessToken;
  const page = await industriesFind({ query: { $limit: 1 }, auth: token });
  const first = page.data?.data?.[0];
  if (!first) return undefined;
  const one = await industriesGet({ path: { id: first._id } });
  return one.data;
}
`;

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) {
    rmSync(folder, { recursive: true, force: true });
    console.error(`${path.basename(command)} failed`);
    process.exit(result.status ?? 1);
  }
}

try {
  const input = path.join(folder, 'openapi.json');
  writeFileSync(input, JSON.stringify(offlineDocuments().admin));
  run(path.join(BIN, 'openapi-ts'), [
    '-i',
    input,
    '-o',
    path.join(folder, 'generated'),
    '-c',
    '@hey-api/client-fetch',
    '--no-log-file',
    '--silent',
  ]);
  writeFileSync(path.join(folder, 'usage.ts'), USAGE);
  writeFileSync(
    path.join(folder, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'Bundler',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        lib: ['ES2022', 'DOM', 'DOM.Iterable'],
      },
      include: ['**/*.ts'],
    }),
  );
  run(path.join(BIN, 'tsc'), ['-p', path.join(folder, 'tsconfig.json')]);
  console.log('The generated client compiles.');
} finally {
  rmSync(folder, { recursive: true, force: true });
}
