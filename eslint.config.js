import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import importX from 'eslint-plugin-import-x';
import { readdirSync } from 'node:fs';
import globals from 'globals';

// Layer boundaries of docs/architecture.md: domain imports nothing outside itself, engine only domain,
// web only domain (never server or engine). Enforced on both relative paths and #aliases.
const layer = (target, from, message) => ({ target, from, message });

// One web feature never imports another (docs/conventions.md); pages in src/web/routes compose them. One zone per
// feature folder, so a new feature is covered without touching this file.
const FEATURES = './src/web/features';
const features = readdirSync(new URL(`${FEATURES}/`, import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const featureZones = features.map((name) => ({
  target: `${FEATURES}/${name}`,
  from: FEATURES,
  except: [`./${name}`],
  message: `web features do not import each other: compose ${name} with other features in a page (src/web/routes).`,
}));

export default tseslint.config(
  {
    ignores: [
      'build/',
      '.builds/',
      'data/',
      '.react-router/',
      'node_modules/',
      'test-results/',
      'playwright-report/',
      'bench/results/',
      'public/',
      'clients/typescript/src/schema.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'import-x': importX },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // Input validation deliberately matches control characters (CR/LF/NUL injection checks).
      'no-control-regex': 'off',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            layer('./src/domain', './src/engine', 'domain must not import engine'),
            layer('./src/domain', './src/server', 'domain must not import server'),
            layer('./src/domain', './src/web', 'domain must not import web'),
            layer('./src/engine', './src/server', 'engine must not import server'),
            layer('./src/engine', './src/web', 'engine must not import web'),
            // The engine speaks domain values; the paid API's answer shapes are mapped from them in the server (issue 58).
            layer(
              './src/engine',
              ['./src/domain/schemas/api', './src/domain/event-dto.ts'],
              'engine must not import the API answer types (DTOs) or their mapping: hand out domain values (src/domain/values.ts) and map them in src/server',
            ),
            layer('./src/web', './src/server', 'web must not import server'),
            layer('./src/web', './src/engine', 'web must not import engine'),
            ...featureZones,
            // Test support (tests/support, #tests/*) is for tests: no shipped module may depend on it.
            layer('./src/**/!(*.test).{ts,tsx}', './tests', 'only tests may import test support (tests/)'),
          ],
        },
      ],
    },
  },
  {
    files: ['src/domain/**/*.{ts,tsx}'],
    ignores: ['src/domain/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                'react',
                'react-*',
                'react/*',
                'fastify',
                'fastify*',
                '@fastify/*',
                'drizzle-orm*',
                'pg',
                'ioredis',
                '@electric-sql/*',
                'node:*',
                '#engine/*',
                '#server/*',
                '#web/*',
              ],
              message:
                'src/domain is pure TypeScript: no framework, database, DOM or Node imports (docs/architecture.md).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/engine/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['#server/*', '#web/*', 'react', 'react-*', 'fastify', '@fastify/*'],
              message: 'engine may import only domain (docs/architecture.md).',
            },
            {
              // A regex: in a `group`, a leading # starts a comment (gitignore syntax), so '#…' patterns match nothing.
              regex: '^#domain/(schemas/api/|event-dto\\.ts$)',
              message:
                'engine may not import the API answer types (DTOs) or their mapping: it hands out domain values (src/domain/values.ts), the server maps them (issue 58).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      // Prerendering evaluates every page module; an import() started at module scope can still be in flight when
      // React Router deletes the server build, which failed the build (docs/decisions/007). Start loads on first use.
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportExpression:not(:function ImportExpression)',
          message: 'No import() at module scope in src/web: load on first use (docs/decisions/007).',
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '#server/*',
                '#engine/*',
                'fastify',
                '@fastify/*',
                'drizzle-orm*',
                'pg',
                'ioredis',
                'node:*',
              ],
              message: 'web may import only domain (docs/architecture.md).',
            },
          ],
        },
      ],
    },
  },
);
