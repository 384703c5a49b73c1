// Lint rules of record for engram: typed TypeScript rules, sorted imports, and layer boundaries.
import js from '@eslint/js';
import simpleImportSort from 'eslint-plugin-simple-import-sort';
import globals from 'globals';
import tseslint from 'typescript-eslint';

import floors from './scripts/lint/floors.js';

const driverImports = {
  group: ['better-sqlite3', 'pg', 'pgvector', 'pgvector/*'],
  message: 'Only src/store imports a database driver; go through the Store interface.',
};
const interfaceImports = {
  group: [
    'commander',
    'cli-progress',
    'cli-table3',
    'hono',
    'hono/*',
    '@hono/*',
    '@modelcontextprotocol/*',
  ],
  message: 'Only src/interfaces imports a CLI, HTTP or MCP library.',
};

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      'bench/results/**',
      '.scratch*/**',
      'src/interfaces/web/lib/api-schema.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { 'simple-import-sort': simpleImportSort },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'simple-import-sort/imports': 'error',
      'simple-import-sort/exports': 'error',
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    files: ['src/**/*.ts'],
    plugins: { engram: floors },
    rules: {
      'engram/floors': 'error',
      // The bundled CLI (dist/bin) gives import() of a CommonJS package only a default export.
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportExpression > Literal[value=/^(?!\\.|node:)/]',
          message:
            'Import packages statically, in a module that is itself imported lazily: import() of a package breaks in the bundled CLI.',
        },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/store/**', 'src/interfaces/**', 'src/server.ts', '**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [driverImports, interfaceImports] }] },
  },
  {
    files: ['src/store/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [interfaceImports] }] },
  },
);
