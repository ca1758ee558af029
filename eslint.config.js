// @ts-check
import js from '@eslint/js';
import compat from 'eslint-plugin-compat';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// zod is reached only through domain/zod.ts, which turns off its compiled parsers before any schema
// is built: their `new Function` probe is a CSP violation in WebKit and Firefox (decision 016).
// Flat config keeps only the last `no-restricted-imports` that matches a file, so every block that
// sets the rule lists this pattern too.
const zodThroughDomain = {
  group: ['zod', 'zod/*'],
  message: "Import `z` from domain/zod.ts, which sets zod's jitless mode (its `new Function` probe breaks the CSP).",
};

export default defineConfig(
  globalIgnores([
    'build/',
    '.react-router/',
    'node_modules/',
    'data/',
    'test-results/',
    'playwright-report/',
    'bench/results/',
  ]),
  {
    files: ['**/*.{js,ts,tsx}'],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: 'module',
      // Server, scripts and tests run on Node; app/ runs in both (SSR and the browser).
      globals: { ...globals.node, ...globals.browser },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          args: 'after-used',
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-console': 'off',
      'prefer-const': 'error',
      'no-var': 'error',
      'no-restricted-imports': ['error', { patterns: [zodThroughDomain] }],
    },
  },
  {
    files: ['domain/zod.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // What runs in the browser (the pages and the domain code they share with the server) keeps to
    // the support policy, the `browserslist` of package.json (decision 016): a web or JavaScript
    // API that a browser of the policy lacks is an error, unless it is listed here with a fallback.
    files: ['app/**/*.{ts,tsx}', 'domain/**/*.ts'],
    ignores: ['**/*.server.ts', '**/*.server.tsx', '**/*.test.ts', '**/*.test.tsx'],
    extends: [compat.configs['flat/recommended']],
    settings: {
      lintAllEsApis: true,
      polyfills: [],
    },
    rules: { 'compat/compat': 'error' },
  },
  {
    // The pages' own modules never load the public holiday tables (close to 1 MB): working days
    // are counted on the server, and a page names only the figures (domain/billing/lead-time.ts).
    // Nor do they reach into the server: what both sides need lives in domain/, and only a page's
    // `*.server.ts` modules (kept out of the browser's bundles) may call server code (decision 047).
    // One block for both: a later `no-restricted-imports` for the same files would replace this one.
    files: ['app/**/*.{ts,tsx}'],
    ignores: ['**/*.server.ts', '**/*.server.tsx', '**/*.test.ts', '**/*.test.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'date-holidays', message: 'Count working days on the server.' }],
          patterns: [
            zodThroughDomain,
            {
              group: ['**/domain/billing/availability', '**/domain/orders/working-days'],
              message: 'These load every public holiday table; count working days on the server.',
            },
            {
              group: ['**/server/**'],
              message: 'Pages reach server code only from `*.server.ts` modules; move shared types to domain/.',
            },
          ],
        },
      ],
    },
  },
  {
    // The server knows nothing of the pages: what both need lives in domain/ (decision 047).
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            zodThroughDomain,
            {
              group: ['**/app/**'],
              message: 'The server does not import the pages; move what both need to domain/.',
            },
          ],
        },
      ],
    },
  },
  {
    // The pages reach the services through the typed service map (decision 048): an answer or an
    // argument that does not fit is fixed where it is typed, never asserted away at the seam.
    files: ['app/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'TSAsExpression > TSNeverKeyword.typeAnnotation',
          message:
            '`as never` silences the type of a call: type the value, or the service in domain/entities/services.ts.',
        },
        {
          selector: 'TSAsExpression > TSAsExpression.expression > TSUnknownKeyword.typeAnnotation',
          message:
            'A double assertion through `unknown` hides a wrong type: derive the type from the definitions instead.',
        },
      ],
    },
  },
);
