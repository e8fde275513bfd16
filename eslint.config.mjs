// Lint rules. The one that matters most: src/core stays host-free (no 'vscode', no host code, no DOM),
// so the agent runs the same in VS Code, the CLI and the benchmarks.
import tseslint from 'typescript-eslint';

// Scripts, runners and the build (*.mjs, *.cjs) are linted too. TypeScript does not check them, so
// undefined names are caught here, against the globals of the Node that runs the lint.
const nodeGlobals = Object.fromEntries(
  Object.getOwnPropertyNames(globalThis).map((name) => [name, 'readonly']),
);
const commonJsGlobals = {
  require: 'readonly',
  module: 'writable',
  exports: 'writable',
  __dirname: 'readonly',
  __filename: 'readonly',
};

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'out', '.vscode-test', 'test-results', '.logbook', '.agent-server'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs'],
    languageOptions: { globals: nodeGlobals },
    rules: { 'no-undef': 'error' },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...nodeGlobals, ...commonJsGlobals } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // A stray `.only` would quietly run one test; the runners refuse it too (--forbid-only).
    files: ['test/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['describe', 'it', 'context', 'suite', 'test'].map((object) => ({
          object,
          property: 'only',
          message: 'Remove .only before committing.',
        })),
      ],
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
