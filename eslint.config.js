// Lint rules of record for engram: typed TypeScript rules, sorted imports, and layer boundaries.
import js from '@eslint/js';
import simpleImportSort from 'eslint-plugin-simple-import-sort';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const driverAndInterfaceImports = {
  patterns: [
    {
      group: ['better-sqlite3', 'pg', 'pgvector', 'pgvector/*'],
      message: 'Core and retrieval never import a database driver; go through the Store interface.',
    },
    {
      group: ['**/interfaces/**', 'commander', 'cli-progress', 'cli-table3'],
      message: 'Core and retrieval never import an interface.',
    },
  ],
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'bench/results/**', '.scratch*/**'] },
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
    files: ['src/core/**', 'src/retrieval/**', 'src/embed/**', 'src/config/**', 'src/errors/**'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', driverAndInterfaceImports] },
  },
);
