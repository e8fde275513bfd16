// Lint rules. The one that matters most: src/core stays host-free (no 'vscode', no host code, no DOM),
// so the agent runs the same in VS Code, the CLI and the benchmarks.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'out', '.vscode-test', 'test-results', '**/*.mjs', '**/*.cjs'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'vscode',
              message: 'src/core must not depend on VS Code; add a port and implement it in src/host.',
            },
          ],
          patterns: [
            { group: ['**/host/**', '**/host'], message: 'src/core must not import host code.' },
            { group: ['**/webview-ui/**'], message: 'src/core must not import the webview.' },
          ],
        },
      ],
      'no-restricted-globals': ['error', 'window', 'document', 'navigator'],
    },
  },
  {
    files: ['src/protocol/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: ['vscode'], patterns: ['**/host/**'] }],
    },
  },
);
