/**
 * Completes package-lock.json with the platform packages that the npm registry this project
 * installs from does not serve.
 *
 * `npm ci` refuses a lock file in which an optional dependency has no entry, even one for another
 * operating system that it would skip. When the registry answers 404 for such a package,
 * `npm install` leaves it out of the lock file and the next `npm ci` fails. This adds an entry
 * carrying only the platform fields, which is all `npm ci` reads before skipping it.
 * Run after every `npm install`: `npm run lock:platforms`. tests/unit/lockfile.test.ts checks it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface LockEntry {
  version?: string;
  dev?: boolean;
  optional?: boolean;
  os?: string[];
  cpu?: string[];
  license?: string;
  optionalDependencies?: Record<string, string>;
}
export interface Lock {
  packages: Record<string, LockEntry>;
}

const OPERATING_SYSTEMS = ['android', 'darwin', 'freebsd', 'linux', 'win32', 'openbsd', 'sunos', 'aix'];
const CPUS = ['arm64', 'x64', 'arm', 'ia32', 'wasm32', 'riscv64', 'ppc64', 's390x'];

/** The os and cpu a platform package's name announces, such as `pkg-darwin-arm64`. */
export function platformOf(name: string): { os?: string[]; cpu?: string[] } | undefined {
  const parts = name.split('/').pop()!.split('-');
  const os = OPERATING_SYSTEMS.find((candidate) => parts.includes(candidate));
  const cpu = CPUS.find((candidate) => parts.includes(candidate));
  if (!cpu) return undefined;
  return { ...(os ? { os: [os] } : {}), cpu: [cpu] };
}

/** Optional dependencies of locked packages that have no entry of their own. */
export function missingOptionalEntries(lock: Lock): { key: string; version: string; parent: LockEntry }[] {
  const missing: { key: string; version: string; parent: LockEntry }[] = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
      const nested = `${path ? `${path}/` : ''}node_modules/${name}`;
      const hoisted = `node_modules/${name}`;
      if (lock.packages[nested] || lock.packages[hoisted]) continue;
      missing.push({ key: hoisted, version, parent: entry });
    }
  }
  return missing;
}

export function completeLock(lock: Lock): string[] {
  const added: string[] = [];
  for (const { key, version, parent } of missingOptionalEntries(lock)) {
    const platform = platformOf(key);
    if (!platform) throw new Error(`${key} is missing from the lock file and is not a platform package`);
    lock.packages[key] = {
      version,
      ...platform,
      ...(parent.dev ? { dev: true } : {}),
      optional: true,
    };
    added.push(key);
  }
  lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return added;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = new URL('../package-lock.json', import.meta.url);
  const lock = JSON.parse(readFileSync(file, 'utf8')) as Lock;
  const added = completeLock(lock);
  writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(added.length ? `Added ${added.join(', ')}` : 'The lock file is complete.');
}
