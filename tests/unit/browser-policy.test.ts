import browserslist from 'browserslist';
import browserslistToEsbuild from 'browserslist-to-esbuild';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import viteConfig from '../../vite.config.ts';

// The support policy is the `browserslist` of package.json (decision 016); these read it from there.
const policy = browserslist();

describe('the browser support policy', () => {
  it('reaches back to Safari and iOS 16.4, and no further', () => {
    expect(policy).toEqual(expect.arrayContaining(['safari 16.4', 'ios_saf 16.4']));
    expect(policy).not.toContain('safari 16.3');
    expect(policy).not.toContain('ios_saf 16.3');
  });

  it('covers every Chrome, Edge, Samsung Internet and Firefox of the last two years, on desktops and phones', () => {
    for (const browser of ['chrome', 'edge', 'samsung', 'firefox', 'and_chr', 'and_ff']) {
      const released = browserslist(`last 2 years and ${browser} > 0`);
      expect(released.length, browser).toBeGreaterThan(0);
      expect(policy).toEqual(expect.arrayContaining(released));
    }
  });

  it('is what the build targets', () => {
    const target = viteConfig.build?.target;
    expect(target).toEqual(browserslistToEsbuild(policy));
    expect(target).toEqual(expect.arrayContaining(['safari16.4', 'ios16.4']));
    // The stylesheet follows the scripts' targets unless told otherwise.
    expect(viteConfig.build?.cssTarget).toBeUndefined();
  });
});

describe('the compatibility lint rule', () => {
  const eslint = new ESLint();
  const lint = async (filePath: string, code: string) => (await eslint.lintText(code, { filePath }))[0]?.messages ?? [];

  it('refuses, in browser code, an API that a browser of the policy lacks', async () => {
    const messages = await lint(
      'app/components/probe.tsx',
      'export const start = () => requestIdleCallback(() => undefined);\n',
    );
    expect(messages).toEqual([
      expect.objectContaining({ ruleId: 'compat/compat', message: expect.stringContaining('Safari 16.4') }),
    ]);
  }, 30_000);

  it('leaves the server alone, which runs on Node', async () => {
    expect(await lint('server/probe.ts', 'export const start = () => requestIdleCallback(() => undefined);\n')).toEqual(
      [],
    );
    expect(
      await lint('app/probe.server.ts', 'export const start = () => requestIdleCallback(() => undefined);\n'),
    ).toEqual([]);
  }, 30_000);
});
