// ESLint: the recommended rules of ESLint and typescript-eslint (type-checked), as `yo code` sets up.
// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Imports of these folders (any depth: the patterns match the import's path). @param {string[]} names */
const folders = (...names) => names.flatMap((n) => [`**/${n}`, `**/${n}/**`]);
/**
 * The layers of docs/architecture.md: a layer's files may not import `group`.
 * @param {string} message @param {string[]} group
 */
const layer = (message, group) => ({ 'no-restricted-imports': ['error', { patterns: [{ group, message }] }] });
/** What plain Node code may not import: `vscode`, and the layers that import it (of runs/, all but the run core). */
const notPlainNode = [
  'vscode', ...folders('commands', 'live', 'views', 'webview', 'editor', 'tree', 'documents', 'ui', 'fs'), '**/runs/*', '!**/runs/core',
  '**/connection/*', '!**/connection/connection', '!**/connection/connectionInfo', '**/extension', '**/testApi', '**/services', '**/log', '**/settings', '**/walkthrough',
];
const plainNodeMessage = 'Plain Node code imports neither `vscode` nor a layer that does (docs/architecture.md, Layers)';
const plainNode = '{src/{changes,save,search,people,sandbox,cli,api,model,validation,util}/**/*.ts,src/live/{liveReads,poller}.ts,src/runs/core/**/*.ts}';

export default tseslint.config(
  { ignores: ['dist/', 'out/', '.diagnostics/', '.oms-data/', 'node_modules/', 'src/validation/generated/'] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['*.js', '*.mjs'] }, tsconfigRootDir: import.meta.dirname },
    },
  },
  {
    rules: {
      // Long words the user reads (messages, test titles) stay whole; code and comments wrap.
      'max-len': ['error', { code: 160, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true }],
      // `const { Notes: _notes, ...rest } = object` leaves fields out on purpose.
      '@typescript-eslint/no-unused-vars': ['error', { varsIgnorePattern: '^_', argsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // node:test's test() and suite() return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': ['error', {
        allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'suite', 'describe', 'it'] }],
      }],
    },
  },
  {
    // Tests read the service's JSON answers as they come (`any`) and check their shape by assertions at run time.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // Webview scripts run in the webview's browser page: its DOM names are globals there (the files are `@ts-check`ed).
    files: ['media/**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { sourceType: 'script' },
    rules: { 'no-undef': 'off' },
  },
  {
    // The build script is plain CommonJS run by node.
    files: ['**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', process: 'readonly', console: 'readonly', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  // Layers (docs/architecture.md): imports point down only, and nothing below the editor layers imports `vscode`.
  {
    files: ['src/{runs,live,views,webview,editor,tree}/**/*.ts'],
    rules: layer('A layer below the commands does not import them (docs/architecture.md, Layers)', [...folders('commands'), '**/extension', '**/testApi']),
  },
  {
    files: ['src/documents/**/*.ts'],
    rules: layer('The document layer imports only the layers below it (docs/architecture.md, Layers)',
      [...folders('commands', 'runs', 'live', 'views', 'webview', 'editor', 'tree'), '**/extension', '**/testApi']),
  },
  {
    files: ['src/{ui,fs,connection}/**/*.ts'],
    rules: layer('This layer imports only the layers below it (docs/architecture.md, Layers)',
      [...folders('commands', 'runs', 'live', 'views', 'webview', 'editor', 'tree', 'documents'), '**/extension', '**/testApi', '**/services']),
  },
  {
    // Plain Node: the client, model, validation, change sets, the run core, the sandbox and the command line run and are tested without VS Code.
    files: [plainNode, 'src/connection/connection.ts', 'src/connection/connectionInfo.ts', 'src/l10n.ts'],
    rules: layer(plainNodeMessage, notPlainNode),
  },
  {
    // The run core's siblings in runs/ are the editor's host: `../x` from runs/core/ is one of them (`../../x` is below).
    files: ['src/runs/core/**/*.ts'],
    rules: layer(plainNodeMessage, [...notPlainNode, '../[a-zA-Z]*']),
  },
);
