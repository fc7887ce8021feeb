// ESLint: the recommended rules of ESLint and typescript-eslint (type-checked), as `yo code` sets up.
// @ts-check
import * as fs from 'node:fs';
import * as path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The layers of docs/architecture.md, top down: a file of src/ may import its own layer and those below it, by
// any import (static, `export from`, `import()`, `import type`). A folder is in one layer; live/ and
// connection/ are plain Node but for the files named in `editorFiles`, so a new file there is plain Node
// until named. A folder or top-level file that is in no layer fails the lint until it is placed here.
const src = path.join(import.meta.dirname, 'src');
const layerNames = ['', 'the commands', 'the editor features', 'the document layer', 'the UI services', 'plain Node'];
/** Folder (or top-level file) of src/ -> layer, 1 (top) to 5 (plain Node: no `vscode`). @type {Record<string, number>} */
const layers = {
  commands: 1,
  runs: 2,
  views: 2,
  webview: 2,
  editor: 2,
  tree: 2,
  documents: 3,
  ui: 4,
  fs: 4,
  live: 5,
  connection: 5,
  changes: 5,
  save: 5,
  search: 5,
  people: 5,
  sandbox: 5,
  cli: 5,
  api: 5,
  model: 5,
  validation: 5,
  util: 5,
  query: 5,
  'l10n.ts': 5,
};
/** Folders of src/ in a layer other than their parent's: the run core of runs/ is plain Node. @type {Record<string, number>} */
const subfolders = { 'runs/core': 5 };
/** The files of live/ and connection/ that use `vscode`, and their layer. @type {Record<string, number>} */
const editorFiles = {
  'live/followDocuments.ts': 2,
  'live/liveDocuments.ts': 2,
  'live/livePollHost.ts': 2,
  'live/liveUpdates.ts': 2,
  'live/openObjects.ts': 2,
  'live/serverChanges.ts': 2,
  'connection/connectionManager.ts': 4,
  'connection/envConnection.ts': 4,
  'connection/httpSettings.ts': 4,
  'connection/productionQuestion.ts': 4,
  'connection/sandboxHost.ts': 4,
  'connection/statusBar.ts': 4,
  'connection/tokenStore.ts': 4,
};
/**
 * Beside the layers: their own imports are not checked; as import targets they count as this layer (only the
 * commands import the composition root and the test API; services.ts is above layer 4; the log, settings and
 * walkthrough use `vscode`). `vscode` itself counts as layer 4.
 * @type {Record<string, number>}
 */
const beside = { 'extension.ts': 1, 'testApi.ts': 1, 'services.ts': 3, 'log.ts': 4, 'settings.ts': 4, 'walkthrough.ts': 4 };
for (const file of Object.keys(editorFiles))
  if (!fs.existsSync(path.join(src, file))) throw new Error(`eslint.config.mjs: editorFiles names src/${file}, which is gone`);

/** The layer of a file of src/ (0: beside the layers), or undefined if it is in none. @param {string} file @returns {number | undefined} */
function layerOf(file) {
  const rel = path.relative(src, file).split(path.sep).join('/');
  const top = rel.split('/')[0];
  for (const name of [rel, `${rel}.ts`]) if (name in editorFiles) return editorFiles[name];
  for (const [dir, n] of Object.entries(subfolders)) if (rel === dir || rel.startsWith(`${dir}/`)) return n;
  return layers[top] ?? layers[`${top}.ts`] ?? (top in beside || `${top}.ts` in beside ? 0 : undefined);
}

/** @type {import('eslint').Rule.RuleModule} */
const importsPointDown = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const file = context.filename;
    if (!file.startsWith(src + path.sep)) return {};
    const own = layerOf(file);
    const where = path.relative(import.meta.dirname, file);
    /** @param {import('eslint').Rule.Node} node @param {unknown} source */
    const check = (node, source) => {
      if (typeof source !== 'string' || !own) return;
      let target;
      if (source === 'vscode') target = 4;
      else if (source.startsWith('.')) {
        const resolved = path.resolve(path.dirname(file), source);
        if (!resolved.startsWith(src + path.sep)) return;
        target = beside[`${path.relative(src, resolved)}.ts`] ?? layerOf(resolved);
      }
      if (target === undefined || target >= own) return;
      const what = source === 'vscode' ? '`vscode`' : `${source} (${layerNames[target]}, layer ${target})`;
      context.report({
        node,
        message: `${where} is in ${layerNames[own]} (layer ${own}), which does not import ${what}: imports point down only (docs/architecture.md, Layers)`,
      });
    };
    return {
      Program(node) {
        if (own === undefined)
          context.report({ node, message: `${where} is in no layer: place its folder in \`layers\` of eslint.config.mjs (docs/architecture.md, Layers)` });
      },
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => {
        if (node.source.type === 'Literal') check(node, node.source.value);
        else if (node.source.type === 'TemplateLiteral' && node.source.expressions.length === 0) check(node, node.source.quasis[0].value.cooked);
        else context.report({ node, message: `${where}: an import() of a computed name cannot be checked against the layers; name the module` });
      },
      // `import vscode = require('vscode')`, how src/ imports the editor's API.
      TSImportEqualsDeclaration: (/** @type {{ moduleReference: { type: string; expression?: { value?: unknown } } }} */ node) =>
        node.moduleReference.type === 'TSExternalModuleReference' &&
        check(/** @type {import('eslint').Rule.Node} */ (/** @type {unknown} */ (node)), node.moduleReference.expression?.value),
      // `typeof import('…')` in a type.
      TSImportType: (/** @type {{ argument?: { literal?: { value?: unknown } } }} */ node) =>
        check(/** @type {import('eslint').Rule.Node} */ (/** @type {unknown} */ (node)), node.argument?.literal?.value),
    };
  },
};

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
      // A lone string literal may be longer: an l10n.t() message stays one literal (@vscode/l10n-dev extracts only literals; grep finds it whole).
      'max-len': ['error', { code: 160, ignorePattern: String.raw`^\s*(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")(?:,|\)|\),|\);)?$` }],
      // `const { Notes: _notes, ...rest } = object` leaves fields out on purpose.
      '@typescript-eslint/no-unused-vars': ['error', { varsIgnorePattern: '^_', argsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // node:test's test() and suite() return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'suite', 'describe', 'it'] }],
        },
      ],
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
  {
    // The editor's API is one CommonJS object the host provides: `import vscode = require('vscode')` compiles to a
    // bare require. An ES import of it would make esbuild's CommonJS output copy its properties into a module
    // object of its own (`__toESM`) in every module that imports it (docs/architecture.md, Bundles).
    files: ['src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-require-imports': ['error', { allow: ['^vscode$'] }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value='vscode'][importKind!='type'][specifiers.length>0]",
          message: "Import the editor's API as `import vscode = require('vscode')` (docs/architecture.md, Bundles).",
        },
      ],
    },
  },
  // Layers (docs/architecture.md): imports point down only, and nothing below the editor layers imports `vscode`.
  { files: ['src/**/*.ts'], plugins: { layers: { rules: { 'imports-point-down': importsPointDown } } }, rules: { 'layers/imports-point-down': 'error' } },
);
