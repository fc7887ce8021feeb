// Bundles the extension and the sandbox CLI. `--watch` rebuilds; `--release` minifies.
//
// Activation loads dist/extension.js only. What one command or the embedded
// sandbox needs is a bundle of its own (`lazy` below), which the code loads on
// first use with a `require`/`import()` inside a function: every import of such
// a module, from any bundle, becomes a require of its file in dist/.
const esbuild = require('esbuild');
const path = require('path');
const { execFileSync } = require('child_process');

const release = process.argv.includes('--release');
const watch = process.argv.includes('--watch');

/** Bundle name -> module loaded on first use. */
const lazy = {
  validators: 'src/validation/generated/validators.js',
  firstErrorValidators: 'src/validation/generated/firstErrorValidators.js',
  people: 'src/people/index.ts',
  sandboxServer: 'src/sandbox/server.ts',
};
const lazyFiles = new Map(Object.entries(lazy).map(([name, file]) => [path.resolve(__dirname, file), name]));

/** Imports of a lazy module become requires of its bundle instead of a copy. */
const lazyBundles = {
  name: 'lazy-bundles',
  setup(build) {
    build.onResolve({ filter: /^\./ }, async (args) => {
      if (args.kind === 'entry-point' || args.pluginData === 'lazy-bundles') return undefined;
      const resolved = await build.resolve(args.path, { resolveDir: args.resolveDir, kind: args.kind, importer: args.importer, pluginData: 'lazy-bundles' });
      const name = lazyFiles.get(resolved.path);
      return name ? { path: `./${name}.js`, external: true } : resolved;
    });
  },
};

const options = {
  entryPoints: { extension: 'src/extension.ts', sandbox: 'src/sandbox/cli.ts', ...lazy },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node18',
  format: 'cjs',
  external: ['vscode'],
  plugins: [lazyBundles],
  // `import()` of a lazy bundle becomes a plain require: the extension host's loader, no ESM.
  supported: { 'dynamic-import': false },
  // ES module builds first: jsonc-parser's UMD build loads its parts with a require esbuild cannot follow.
  mainFields: ['module', 'main'],
  minify: release,
  sourcemap: !release,
  metafile: true,
  logLevel: 'warning',
};

(async () => {
  // The validators are generated from schemas/ first (ajv standalone code).
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/validators.ts'], { stdio: 'inherit', cwd: __dirname });
  if (watch) {
    const ctx = await esbuild.context(options);
    await ctx.watch();
  } else {
    const result = await esbuild.build(options);
    require('fs').writeFileSync(path.join(__dirname, 'dist', 'meta.json'), JSON.stringify(result.metafile));
  }
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
