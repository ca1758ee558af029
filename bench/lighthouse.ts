/**
 * `npm run bench:pages` (and `npm run bench`): Lighthouse, mobile settings, on every public page in
 * every language, against a production build served by a server this script starts on a fresh
 * embedded database. Prints figures and whether each budget is met; asserts nothing.
 *
 * Pages: those of /sitemap.xml, with one use case, one article and one plan standing for all of their kind
 * (they share a template). A page that does not answer 200 yet is listed, not measured.
 *
 * JavaScript is counted twice: as Lighthouse saw it transferred (gzip, with headers), and as the sum
 * of the gzipped build files the page loaded (for a page whose scripts wait for the visitor's first
 * interaction, which Lighthouse never makes, the files that interaction loads). The second measure is also taken of the build's empty
 * page: the client entry and the root route with what they import (React, React Router, the
 * shell's root), which every page loads before any code of its own: the framework's floor.
 *
 *   BENCH_SKIP_BUILD=1  reuse build/     BENCH_PAGES=/,/pricing  only these paths (without language);
 *                       `/plan/*` stands for the first page of that kind in the sitemap
 *   BENCH_RUNS=3        Lighthouse runs per page; the figures are those of the median run, picked
 *                       the way Lighthouse recommends (computeMedianRun: nearest the median FCP and
 *                       TTI), because one run of a page moves by several points on a shared machine
 *   BENCH_VERBOSE=1     list each script a page loaded, transferred and gzipped from the build
 *   BENCH_REPORTS=1     keep each page's Lighthouse report in bench/results/ (JSON)
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Result } from 'lighthouse';
import { computeMedianRun } from 'lighthouse/core/lib/median-run.js';
import { LOCALES } from '../domain/locales.ts';
import { startExtraServer } from '../tests/e2e/extra-server.ts';

const BUDGET = { performance: 95, others: 100, cls: 0.05, jsKb: 130, overFloor: 0.1 };
/**
 * The purchase flow's first page (issue 14's budgets): performance at least 90; SEO does not apply
 * to it (a private page, `noindex` on purpose); its JavaScript within 10% of the empty page (the
 * public pages' 130 KB ceiling aside); the rest as the public pages.
 */
const PURCHASE_PAGES = ['/subscription?industry=restaurant&plan=restaurant-lite'];
const PURCHASE_PERFORMANCE = 90;
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];
const CLIENT_DIR = path.resolve('build/client');
const KB = 1024;
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3) || 1);

const gzipped = new Map<string, number>();
/** A build file's size gzipped as the server's compression sends it (zlib's default level). */
function gzipSize(file: string): number {
  let size = gzipped.get(file);
  if (size === undefined) {
    size = gzipSync(readFileSync(path.join(CLIENT_DIR, file))).length;
    gzipped.set(file, size);
  }
  return size;
}

interface Assets {
  entry: { module: string; imports: string[] };
  routes: Record<string, { module: string; imports?: string[] }>;
}

/** The JavaScript every page of this build loads before its own: client entry, root route, their imports. */
async function frameworkFloor(): Promise<{ files: string[]; bytes: number }> {
  const build = (await import(pathToFileURL(path.resolve('build/server/index.js')).href)) as { assets: Assets };
  const root = build.assets.routes.root;
  const files = [
    ...new Set([
      build.assets.entry.module,
      ...build.assets.entry.imports,
      root?.module ?? '',
      ...(root?.imports ?? []),
    ]),
  ].filter(Boolean);
  return { files, bytes: files.reduce((sum, file) => sum + gzipSize(file), 0) };
}

/** Sitemap paths without language, one use case, one article and one plan standing for the rest. */
async function pagesToMeasure(origin: string): Promise<string[]> {
  const asked = process.env.BENCH_PAGES?.split(',').map((page) => (page === '/' ? '' : page));
  // A page named by its kind (`/plan/*`): the one of that kind the sitemap lists first (ids differ per database).
  if (asked && !asked.some((page) => page.endsWith('/*'))) return asked;
  const xml = await (await fetch(`${origin}/sitemap.xml`)).text();
  const paths = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)]
    .map((match) => new URL(match[1] ?? '').pathname)
    .filter((p) => p.startsWith('/en'));
  const seen = new Set<string>();
  const publicPages = paths
    .map((p) => p.slice('/en'.length))
    .filter((p) => {
      const kind = /^\/(usecase|blogs|plan)\/./.exec(p)?.[1] ?? p;
      if (seen.has(kind)) return false;
      seen.add(kind);
      return true;
    });
  const all = [...publicPages, ...PURCHASE_PAGES];
  if (!asked) return all;
  return asked.flatMap((page) =>
    page.endsWith('/*') ? all.filter((known) => known.startsWith(page.slice(0, -1))).slice(0, 1) : [page],
  );
}

interface Row {
  page: string;
  status: number;
  scores?: Record<(typeof CATEGORIES)[number], number>;
  cls?: number;
  jsTransferKb?: number;
  jsBuildKb?: number;
  misses?: string[];
  /** Audits that cost points, per category, to say why a budget is missed. */
  failing?: string[];
  /** The performance score of each run, when a page ran more than once. */
  spread?: number[];
  /** Its scripts wait for an interaction: Lighthouse loaded none, the build column counts them. */
  waits?: boolean;
}

/**
 * The build files a page holds back in its HTML (module preloads without their `rel`), gzipped: on
 * a page whose scripts wait for the visitor's first interaction, Lighthouse (which does nothing on
 * the page) loads none of them, but a visitor who interacts does, so the JavaScript budgets count them.
 */
function heldScripts(html: string): number {
  const files = new Set(
    [...html.matchAll(/<link data-rel="modulepreload" href="\/(assets\/[^"]+\.js)"/g)].map((match) => match[1] ?? ''),
  );
  return [...files].reduce((sum, file) => sum + gzipSize(file), 0);
}

function measure(lhr: Result, origin: string, floorBytes: number, page: string, held: number): Row {
  const scores = Object.fromEntries(
    CATEGORIES.map((id) => [id, Math.round((lhr.categories[id]?.score ?? 0) * 100)]),
  ) as Row['scores'] & object;
  const cls = lhr.audits['cumulative-layout-shift']?.numericValue ?? Number.NaN;
  const requests = (
    (
      lhr.audits['network-requests']?.details as
        { items?: { url: string; resourceType?: string; transferSize?: number }[] } | undefined
    )?.items ?? []
  ).filter((item) => item.resourceType === 'Script');
  const jsTransfer = requests.reduce((sum, item) => sum + (item.transferSize ?? 0), 0);
  if (process.env.BENCH_VERBOSE === '1') {
    for (const item of requests)
      console.log(
        `  ${page} ${item.url} ${item.transferSize} ${item.url.startsWith(`${origin}/assets/`) ? gzipSize(new URL(item.url).pathname.slice(1)) : '-'}`,
      );
  }
  const loaded = requests.reduce(
    (sum, item) =>
      item.url.startsWith(`${origin}/assets/`) ? sum + gzipSize(new URL(item.url).pathname.slice(1)) : sum,
    0,
  );
  // What the page loads once the visitor interacts, if its scripts wait for that (decision 012).
  const jsBuild = Math.max(loaded, held);
  const misses: string[] = [];
  const purchase = PURCHASE_PAGES.some((purchasePage) => page.endsWith(purchasePage));
  const performanceBudget = purchase ? PURCHASE_PERFORMANCE : BUDGET.performance;
  if (scores.performance < performanceBudget) misses.push(`performance ${scores.performance} < ${performanceBudget}`);
  for (const id of purchase
    ? (['accessibility', 'best-practices'] as const)
    : (['accessibility', 'best-practices', 'seo'] as const)) {
    if (scores[id] < BUDGET.others) misses.push(`${id} ${scores[id]} < 100`);
  }
  if (!(cls < BUDGET.cls)) misses.push(`CLS ${cls.toFixed(3)} >= ${BUDGET.cls}`);
  // The budget is the gzipped JavaScript; HTTP/1.1 headers (about 0.6 KB a file here, a few bytes
  // over HTTP/2) are shown in the transferred column but not counted against it.
  // The purchase flow's JavaScript budget is its own (issue 14): within 10% of the empty page,
  // checked below; the public pages' 130 KB ceiling is not one of the budgets it names.
  if (!purchase && jsBuild > BUDGET.jsKb * KB) misses.push(`JS ${(jsBuild / KB).toFixed(1)} KB > ${BUDGET.jsKb} KB`);
  // A page sent without the framework's scripts (decision 012, addendum) loads 0 KB: under the
  // floor, so it meets this budget rather than being reported as a page the measure missed.
  if (jsBuild > floorBytes * (1 + BUDGET.overFloor))
    misses.push(`JS ${((jsBuild / floorBytes - 1) * 100).toFixed(0)}% over the empty page`);
  const failing = CATEGORIES.flatMap((id) =>
    (lhr.categories[id]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => `${id}: ${ref.id} (${lhr.audits[ref.id]?.displayValue ?? lhr.audits[ref.id]?.score})`),
  );
  return {
    page,
    status: 200,
    scores,
    cls,
    jsTransferKb: jsTransfer / KB,
    jsBuildKb: jsBuild / KB,
    misses,
    failing,
    waits: loaded === 0 && held > 0,
  };
}

const pad = (value: string | number, width: number) => String(value).padStart(width);

/** One Lighthouse run; a run whose trace failed (NO_NAVSTART and the like, seen now and then) is retried twice. */
async function audit(url: string, port: number) {
  for (let attempt = 1; ; attempt += 1) {
    const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    if (!result.lhr.runtimeError || attempt === 3) return result;
    console.log(`  ${url}: ${result.lhr.runtimeError.code}, run again`);
  }
}

async function main() {
  if (process.env.BENCH_SKIP_BUILD !== '1') {
    const build = spawnSync('npm', ['run', 'build'], { encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}\n${build.stderr}`);
  }
  const floor = await frameworkFloor();
  const server = await startExtraServer({ LOG_LEVEL: 'error' });
  const chrome = await chromeLauncher.launch({
    chromePath: '/usr/bin/chromium',
    chromeFlags: CHROME_FLAGS,
    logLevel: 'silent',
  });
  const rows: Row[] = [];
  const started = Date.now();
  try {
    const pages = await pagesToMeasure(server.url);
    console.log(
      `Lighthouse ${(await import('lighthouse/package.json', { with: { type: 'json' } })).default.version}, mobile (default config: Moto G Power, simulated slow 4G), Chromium at /usr/bin/chromium`,
    );
    console.log(
      `${pages.length} pages x ${LOCALES.length} languages x ${RUNS} run(s) on ${server.url} (production build, embedded database)`,
    );
    console.log(
      `empty page of this build (client entry + root route + imports, gzipped): ${(floor.bytes / KB).toFixed(1)} KB in ${floor.files.length} files`,
    );
    console.log();
    for (const page of pages) {
      for (const locale of LOCALES) {
        const pathname = `/${locale}${page}`;
        const response = await fetch(`${server.url}${pathname}`);
        const status = response.status;
        if (status !== 200) {
          rows.push({ page: pathname, status });
          console.log(`${pathname}: ${status}, not measured`);
          continue;
        }
        const runs: Result[] = [];
        for (let run = 0; run < RUNS; run += 1) runs.push((await audit(`${server.url}${pathname}`, chrome.port)).lhr);
        const lhr = runs.length > 1 ? computeMedianRun(runs) : runs[0]!;
        if (process.env.BENCH_REPORTS === '1') {
          mkdirSync('bench/results', { recursive: true });
          writeFileSync(`bench/results/lighthouse${pathname.replace(/\W+/g, '-')}.json`, JSON.stringify(lhr));
        }
        const row = measure(lhr, server.url, floor.bytes, pathname, heldScripts(await response.text()));
        if (runs.length > 1) row.spread = runs.map((one) => Math.round((one.categories.performance?.score ?? 0) * 100));
        rows.push(row);
        console.log(
          `${pathname}: measured (${row.misses?.length ? `${row.misses.length} budget(s) missed` : 'all budgets met'})`,
        );
      }
    }
  } finally {
    chrome.kill();
    await server.stop();
  }

  console.log();
  console.log(
    `${'page'.padEnd(28)}${pad('perf', 6)}${pad('a11y', 6)}${pad('bp', 6)}${pad('seo', 6)}${pad('CLS', 8)}${pad('JS KB', 8)}${pad('build', 8)}${pad('floor', 8)}  budgets`,
  );
  for (const row of rows) {
    if (!row.scores) {
      console.log(`${row.page.padEnd(28)}  HTTP ${row.status}: not built yet`);
      continue;
    }
    const s = row.scores;
    console.log(
      `${row.page.padEnd(28)}${pad(s.performance, 6)}${pad(s.accessibility, 6)}${pad(s['best-practices'], 6)}${pad(s.seo, 6)}` +
        `${pad((row.cls ?? 0).toFixed(3), 8)}${pad((row.jsTransferKb ?? 0).toFixed(1), 8)}${pad(`${(row.jsBuildKb ?? 0).toFixed(1)}${row.waits ? '*' : ''}`, 8)}${pad((floor.bytes / KB).toFixed(1), 8)}  ` +
        (row.misses?.length ? `NOT met: ${row.misses.join('; ')}` : 'met') +
        (row.spread ? `  (performance of each run: ${row.spread.join(', ')})` : ''),
    );
  }
  const why = [...new Set(rows.flatMap((row) => row.failing ?? []))];
  if (why.length) {
    console.log();
    console.log('audits that cost points (any page):');
    for (const line of why) console.log(`  ${line}`);
  }
  console.log();
  console.log(
    `budgets: performance >= ${BUDGET.performance}; accessibility, best practices, SEO = 100; CLS < ${BUDGET.cls}; ` +
      `JS <= ${BUDGET.jsKb} KB gzipped and within ${BUDGET.overFloor * 100}% of the empty page (both on the build files, gzipped); ` +
      `the purchase flow (${PURCHASE_PAGES.join(', ')}): performance >= ${PURCHASE_PERFORMANCE}, SEO not counted (noindex), JS within 10% of the empty page (no 130 KB ceiling)`,
  );
  if (RUNS > 1)
    console.log(`each page ran ${RUNS} times; its figures are those of the median run (Lighthouse's computeMedianRun)`);
  console.log(
    `JS KB: transferred as Lighthouse saw it (gzip + HTTP/1.1 headers); build: the same files gzipped from build/client; floor: the empty page, measured as build`,
  );
  if (rows.some((row) => row.waits)) {
    console.log(
      `*: the page's scripts wait for the visitor's first interaction (decision 012), so Lighthouse loaded none; build counts what an interaction loads`,
    );
  }
  console.log(`total ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

await main();
