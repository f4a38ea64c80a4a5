import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'actions/*/dist/**', 'node_modules/**', 'coverage/**', 'bench/out/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The API core and the review loop run inside n8n too: no process, timers or file system there.
    files: ['api/**/*.ts', 'review/**/*.ts'],
    ignores: ['api/node/**', 'review/node/**'],
    rules: {
      'no-restricted-globals': ['error', 'process', 'setTimeout', 'setInterval', 'setImmediate', 'fetch'],
      'no-restricted-imports': ['error', { patterns: ['node:*', 'fs', 'path', 'undici', '../review/*', '../cli/*', '../sandbox/*'] }],
    },
  },
);
