// Bundles the extension and the sandbox CLI. `--watch` rebuilds; `--release` minifies.
const esbuild = require('esbuild');

const release = process.argv.includes('--release');
const watch = process.argv.includes('--watch');

const options = {
  entryPoints: { extension: 'src/extension.ts', sandbox: 'src/sandbox/cli.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node18',
  format: 'cjs',
  external: ['vscode'],
  // ES module builds first: jsonc-parser's UMD build loads its parts with a require esbuild cannot follow.
  mainFields: ['module', 'main'],
  minify: release,
  sourcemap: !release,
  logLevel: 'warning',
};

(async () => {
  if (watch) {
    const ctx = await esbuild.context(options);
    await ctx.watch();
  } else {
    await esbuild.build(options);
  }
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
