// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', 'coverage/**', '.conformance/**', '.bench/**', '.cache/**', '.mcpengine/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        queueMicrotask: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['error', 'warn'] }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
  {
    // Command-line programs, scripts and tests may print to stdout.
    files: [
      '**/*.test.ts',
      'scripts/**',
      'test/**',
      '**/cli/**',
      '**/bench/**',
      '**/src/test/**',
      'examples/src/*-client.ts',
      'packages/validator/src/catalog/extract.ts',
    ],
    rules: { 'no-console': 'off' },
  },
  {
    // Tests read raw wire messages, whose shape is what they assert.
    files: ['**/*.test.ts', 'test/**', '**/src/test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
