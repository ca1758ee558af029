/**
 * `npm test`: the one command that says the tree is good, locally and in CI (.ci/run).
 * Runs typecheck, lint, the API reference's lint and generated client, unit, integration (PGlite and PostgreSQL), end-to-end tests (Chromium, and
 * the cross-engine WebKit and Firefox projects) and the cluster test (two production instances behind
 * HAProxy, on the build the end-to-end stage made) in that order, stops at the first failure, and
 * ends with one line: `N passed, N failed`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { missingPackages } from '../tests/e2e/engines/packages.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'node_modules', '.bin');
const CHROMIUM = '/usr/bin/chromium';
const INSTALL_CHROMIUM = 'apt-get update && apt-get install -y chromium fonts-noto-cjk';

// The project's Node 24 (node_modules/.bin/node) first, for every tool started from here.
const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${BIN}${path.delimiter}${process.env.PATH ?? ''}` };
const reports = mkdtempSync(path.join(os.tmpdir(), 'tillpoint-test-'));

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

interface StageResult {
  name: string;
  ok: boolean;
  seconds: number;
  counts?: Counts;
  note?: string;
}

const results: StageResult[] = [];

function run(command: string, args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, env: { ...env, ...extraEnv }, stdio: 'inherit' });
    child.on('error', (error) => {
      console.error(`Could not start ${command}: ${error.message}`);
      resolve(127);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function vitestCounts(file: string): Counts | undefined {
  const report = readJson(file) as
    { numPassedTests?: number; numFailedTests?: number; numPendingTests?: number; numTodoTests?: number } | undefined;
  if (!report || typeof report.numPassedTests !== 'number') return undefined;
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests ?? 0,
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
  };
}

function playwrightCounts(file: string): Counts | undefined {
  const report = readJson(file) as
    { stats?: { expected: number; unexpected: number; flaky: number; skipped: number } } | undefined;
  if (!report?.stats) return undefined;
  const { expected, unexpected, flaky, skipped } = report.stats;
  return { passed: expected + flaky, failed: unexpected, skipped };
}

/**
 * Runs checks that read the tree and write nothing another needs, side by side (one per core),
 * each one's output kept until it ends and then printed whole, in the order given.
 */
async function sideBySide(checks: { name: string; command: string; args: string[] }[]): Promise<boolean> {
  const outcomes = await Promise.all(
    checks.map(
      ({ command, args }) =>
        new Promise<{ code: number; output: Buffer[]; seconds: number }>((resolve) => {
          const started = performance.now();
          const output: Buffer[] = [];
          const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
          child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
          child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
          const done = (code: number) => resolve({ code, output, seconds: (performance.now() - started) / 1000 });
          child.on('error', (error) => {
            output.push(Buffer.from(`Could not start ${command}: ${error.message}\n`));
            done(127);
          });
          child.on('close', (code, signal) => done(code ?? (signal ? 128 : 1)));
        }),
    ),
  );
  let ok = true;
  for (const [index, { name, command, args }] of checks.entries()) {
    const { code, output, seconds } = outcomes[index] as { code: number; output: Buffer[]; seconds: number };
    console.log(`\n━━ ${name}: ${[path.basename(command), ...args].join(' ')}\n`);
    process.stdout.write(Buffer.concat(output));
    results.push({ name, ok: code === 0, seconds });
    if (code !== 0) {
      console.error(`\n✗ ${name} failed (exit code ${code}).`);
      ok = false;
    }
  }
  return ok;
}

/** Runs one stage; tests that report counts give them, and a failure outside any test counts as one. */
async function stage(
  name: string,
  command: string,
  args: string[],
  options: { extraEnv?: NodeJS.ProcessEnv; counts?: () => Counts | undefined } = {},
): Promise<boolean> {
  console.log(`\n━━ ${name}: ${[path.basename(command), ...args].join(' ')}\n`);
  const started = performance.now();
  const code = await run(command, args, options.extraEnv);
  const seconds = (performance.now() - started) / 1000;
  let counts = options.counts?.();
  let note: string | undefined;
  if (options.counts && code !== 0 && (!counts || counts.failed === 0)) {
    note = 'failed outside any test (setup, collection or an unhandled error): see above';
    counts = { passed: counts?.passed ?? 0, failed: 1, skipped: counts?.skipped ?? 0 };
  }
  results.push({ name, ok: code === 0, seconds, counts, note });
  if (code !== 0) console.error(`\n✗ ${name} failed (exit code ${code}).`);
  return code === 0;
}

/**
 * The cross-engine tests drive Debian's WebKitGTK and Firefox ESR: install what is missing when this
 * machine can. Elsewhere they are skipped, each saying what to install; with CI=true they fail.
 */
function ensureEngines(): void {
  const missing = [...missingPackages('webkit'), ...missingPackages('firefox')];
  if (missing.length === 0) return;
  const install = `apt-get update && apt-get install -y ${missing.join(' ')}`;
  if (!canInstall()) {
    console.log(
      `\n━━ The WebKit and Firefox tests will be skipped: install ${missing.join(', ')} (sudo sh -c '${install}')\n`,
    );
    return;
  }
  console.log(`\n━━ ${missing.join(', ')} missing: ${install}\n`);
  const started = performance.now();
  const status = spawnSync('sh', ['-c', install], {
    stdio: 'inherit',
    env: { ...env, DEBIAN_FRONTEND: 'noninteractive' },
  }).status;
  results.push({ name: 'install engines', ok: status === 0, seconds: (performance.now() - started) / 1000 });
}

/** Whether this machine can install Debian packages itself (root with apt, as in CI). */
function canInstall(): boolean {
  const isRoot = process.getuid?.() === 0;
  return isRoot && spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
}

/** The end-to-end tests drive Debian's Chromium; install it when this machine can, else say how. */
function ensureChromium(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (canInstall()) {
    console.log(`\n━━ ${CHROMIUM} is missing: ${INSTALL_CHROMIUM}\n`);
    const started = performance.now();
    const install = spawnSync('sh', ['-c', INSTALL_CHROMIUM], {
      stdio: 'inherit',
      env: { ...env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    const ok = install.status === 0 && existsSync(CHROMIUM);
    results.push({ name: 'install chromium', ok, seconds: (performance.now() - started) / 1000 });
    if (ok) return true;
    console.error(`\n✗ Installing Chromium failed. Run it yourself, then npm test again:\n    ${INSTALL_CHROMIUM}`);
    return false;
  }
  console.error(
    [
      '',
      `✗ The end-to-end tests need Debian's Chromium at ${CHROMIUM}, and it is missing.`,
      '  Install it (and the CJK fonts the Chinese pages need), then run npm test again:',
      `    sudo sh -c '${INSTALL_CHROMIUM}'`,
      `  Elsewhere than Debian or Ubuntu, install Chromium so that it runs as ${CHROMIUM}.`,
      '  Playwright never downloads a browser for this project.',
    ].join('\n'),
  );
  results.push({ name: 'chromium', ok: false, seconds: 0, note: `missing ${CHROMIUM}` });
  return false;
}

function printSummary(ok: boolean, seconds: number): void {
  const total: Counts = { passed: 0, failed: 0, skipped: 0 };
  console.log('\n━━ Summary\n');
  for (const result of results) {
    const counts = result.counts;
    if (counts) {
      total.passed += counts.passed;
      total.failed += counts.failed;
      total.skipped += counts.skipped;
    }
    const figures = counts
      ? `${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ''}`
      : '';
    console.log(
      `  ${result.ok ? '✓' : '✗'} ${result.name.padEnd(17)} ${result.seconds.toFixed(1).padStart(6)} s  ${figures}${result.note ? `  (${result.note})` : ''}`,
    );
  }
  console.log(
    `\n${ok ? 'All stages passed' : 'Stopped at the first failure'} in ${seconds.toFixed(0)} s${total.skipped ? `; ${total.skipped} tests skipped` : ''}.`,
  );
  // The last line, for people and for CI logs alike.
  console.log(`${total.passed} passed, ${total.failed} failed`);
}

async function main(): Promise<boolean> {
  const vitestJson = (name: string) => path.join(reports, `${name}.json`);
  const vitest = (name: string, projects: string[]) =>
    stage(
      name,
      path.join(BIN, 'vitest'),
      [
        'run',
        ...projects.flatMap((project) => ['--project', project]),
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${vitestJson(name)}`,
      ],
      { counts: () => vitestCounts(vitestJson(name)) },
    );

  // The static checks, two at a time: each is one process on one core.
  const staticChecks = await sideBySide([
    { name: 'typecheck', command: 'npm', args: ['run', 'typecheck'] },
    { name: 'lint', command: 'npm', args: ['run', 'lint'] },
  ]);
  if (!staticChecks) return false;
  const reference = await sideBySide([
    // The API reference of every caller, by Redocly's recommended rules (decision 058).
    { name: 'lint openapi', command: 'npm', args: ['run', 'lint:openapi'] },
    // A client generated from it compiles.
    { name: 'openapi client', command: 'npm', args: ['run', 'openapi:client'] },
  ]);
  if (!reference) return false;
  if (!(await vitest('unit', ['unit']))) return false;
  if (!(await vitest('integration', ['pglite', 'postgres']))) return false;
  if (!ensureChromium()) return false;
  ensureEngines();
  const e2eJson = path.join(reports, 'e2e.json');
  const e2e = await stage('e2e', path.join(BIN, 'playwright'), ['test'], {
    extraEnv: { PLAYWRIGHT_JSON_OUTPUT_FILE: e2eJson },
    counts: () => playwrightCounts(e2eJson),
  });
  if (!e2e) return false;
  return vitest('cluster', ['cluster']);
}

const started = performance.now();
const ok = await main().catch((error: unknown) => {
  console.error(error);
  return false;
});
rmSync(reports, { recursive: true, force: true });
printSummary(ok, (performance.now() - started) / 1000);
process.exitCode = ok ? 0 : 1;
