import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.scratch*/**', '.engram-cache/**'] },
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
);
