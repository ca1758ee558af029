import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The pages reach the services through the typed service map (decision 048); the lint rule keeps
// assertions that would hide a wrong type out of app/.
describe('the page/service seam lint rule', () => {
  const eslint = new ESLint();
  const lint = async (filePath: string, code: string) =>
    ((await eslint.lintText(code, { filePath }))[0]?.messages ?? []).map((message) => message.ruleId);

  it('refuses `as never` and a double assertion through `unknown` in the pages, on both sides', async () => {
    const code = [
      'export const a = (service: { create(data: string): void }) => service.create(1 as never);',
      'export const b = (value: number) => value as unknown as string;',
      '',
    ].join('\n');
    expect(await lint('app/routes/admin/probe.server.ts', code)).toEqual([
      'no-restricted-syntax',
      'no-restricted-syntax',
    ]);
    expect(await lint('app/components/admin/probe.tsx', code)).toEqual([
      'no-restricted-syntax',
      'no-restricted-syntax',
    ]);
  }, 30_000);

  it('lets a plain assertion, `as const` and the tests’ fakes be', async () => {
    const code = 'export const a = (value: unknown) => value as string;\nexport const b = [1, 2] as const;\n';
    expect(await lint('app/routes/admin/probe.server.ts', code)).toEqual([]);
    expect(
      await lint('app/api/probe.test.ts', 'export const c = (value: number) => value as unknown as string;\n'),
    ).toEqual([]);
  }, 30_000);
});
