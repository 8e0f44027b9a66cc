import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', 'web/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly' } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // Type-aware rules for the service code only: tests, benches, scripts and examples keep the
  // syntactic rules above, which keeps `npx eslint .` fast.
  {
    files: ['src/**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Fastify tells plugins and hooks apart by `async` (a plain one must call `done`), and functions
      // implementing a Promise-returning interface are `async` so that a throw becomes a rejection.
      '@typescript-eslint/require-await': 'off',
      // Like only-throw-error's default: a caught value (typed `unknown`) may be passed on unchanged.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
    },
  },
  // What differs between SQLite and PostgreSQL is asked of the store's dialect adapter; only it and
  // the migrations (which write each dialect's DDL) test which dialect they are on.
  {
    files: ['src/**/*.ts'],
    ignores: ['src/store/dialect.ts', 'src/store/migrations/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "BinaryExpression[operator=/^[!=]==?$/] > Literal[value=/^(sqlite|postgres)$/], SwitchCase > Literal[value=/^(sqlite|postgres)$/]",
          message: 'Ask the DialectAdapter (src/store/dialect.ts) for what differs, instead of testing the dialect here.',
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'kysely',
              importNames: ['PostgresAdapter', 'SqliteAdapter'],
              message: "Kysely's adapter tells the dialect apart: ask dialectAdapterOf (src/store/dialect.ts) instead.",
            },
          ],
        },
      ],
    },
  },
);
