import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Type-aware: the rules that need the type checker (floating promises, unsafe `any` flows, misused
// promises in handlers) run over every file tsconfig.json includes. jsx-a11y checks the markup.
export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-results/**', 'eslint.config.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  jsxA11y.flatConfigs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: {
      globals: { ...globals.browser, ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // A scrolling region (a log, a wide table, the data grid) must be reachable by keyboard to be
      // scrolled by it (axe's scrollable-region-focusable): tabIndex on such regions and on <pre> is right.
      'jsx-a11y/no-noninteractive-tabindex': ['error', { roles: ['region', 'tabpanel', 'figure'], tags: ['pre'] }],
    },
  },
);
