import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'dist-ui/**', 'ui-screenshots/**', 'node_modules/**', 'coverage/**', '.scratch*/**', '.engram-cache/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "ThrowStatement > NewExpression[callee.name='Error']",
          message: 'Throw EngramError (src/core/errors.ts) with a code instead of a bare Error.',
        },
      ],
    },
  },
  {
    files: ['**/*.test.ts', 'testing/**', 'bench/**', 'examples/**'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    // The inspector runs in the browser: its globals, React's hook rules, and plain errors are fine there.
    files: ['ui/src/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error', 'no-restricted-syntax': 'off' },
  },
);
