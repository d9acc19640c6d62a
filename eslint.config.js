// ESLint flat config: typescript-eslint's recommended rules, with the few project settings below.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'test-output/**', 'apps/dashboard/public/vendor/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Nest's dependency injection needs classes with only a constructor, and interfaces for ports.
      '@typescript-eslint/no-extraneous-class': 'off',
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    // Tests read JSON answers whose shape the assertions check.
    files: ['test/**/*.ts', '**/*.spec.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
  {
    files: ['apps/dashboard/public/**/*.js', 'docs/site/**/*.js', 'apps/api/public/**/*.js'],
    languageOptions: {
      globals: Object.fromEntries(
        [
          'window',
          'document',
          'fetch',
          'console',
          'URL',
          'URLSearchParams',
          'sessionStorage',
          'localStorage',
          'btoa',
          'atob',
          'setTimeout',
          'clearTimeout',
          'setInterval',
          'clearInterval',
          'history',
          'location',
          'Intl',
          'HTMLElement',
          'Event',
          'CustomEvent',
          'FormData',
          'navigator',
        ].map((name) => [name, 'readonly']),
      ),
    },
  },
);
