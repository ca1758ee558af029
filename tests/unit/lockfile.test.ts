import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { completeLock, missingOptionalEntries, platformOf, type Lock } from '../../scripts/lock-platforms.ts';

describe('package-lock.json', () => {
  it('has an entry for every optional dependency, so that npm ci accepts it', () => {
    const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as Lock;
    // After `npm install`, run `npm run lock:platforms` to add what the registry does not serve.
    expect(missingOptionalEntries(lock).map((entry) => entry.key)).toEqual([]);
  });
});

describe('lock:platforms', () => {
  it('reads the platform from a package name', () => {
    expect(platformOf('@scope/pkg-darwin-arm64')).toEqual({ os: ['darwin'], cpu: ['arm64'] });
    expect(platformOf('@scope/pkg-linux-arm-gnueabihf')).toEqual({ os: ['linux'], cpu: ['arm'] });
    expect(platformOf('@scope/pkg-wasm32-wasi')).toEqual({ cpu: ['wasm32'] });
    expect(platformOf('left-pad')).toBeUndefined();
  });

  it('adds platform entries and refuses to invent anything else', () => {
    const lock: Lock = {
      packages: {
        '': {},
        'node_modules/native': { version: '1.0.0', dev: true, optionalDependencies: { 'native-win32-x64': '1.0.0' } },
      },
    };
    expect(completeLock(lock)).toEqual(['node_modules/native-win32-x64']);
    expect(lock.packages['node_modules/native-win32-x64']).toEqual({
      version: '1.0.0',
      os: ['win32'],
      cpu: ['x64'],
      dev: true,
      optional: true,
    });
    expect(Object.keys(lock.packages)).toEqual(['', 'node_modules/native', 'node_modules/native-win32-x64']);
    const broken: Lock = { packages: { '': { optionalDependencies: { 'left-pad': '1.0.0' } } } };
    expect(() => completeLock(broken)).toThrow(/not a platform package/);
  });
});
