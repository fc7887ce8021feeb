// Bundles the extension, the sandbox CLI and the `oms` command line. `--watch` rebuilds; `--release` minifies;
// `--cli` builds only the command line (dist/pullThread.js and dist/oms.cjs).
//
// Activation loads dist/extension.js and the chunk it imports (see
// `oneActivationChunk`). Code behind an
// `import()` (a command's code, the editor features, the people import, the
// embedded sandbox...) is a chunk of its own, loaded on first use: esbuild
// splits the code into chunks that share every module, so there is one copy of
// each module's state whichever chunk loads first. Splitting needs ES modules
// and the extension host loads CommonJS, so the build has two passes: ES module
// chunks into dist/esm, then each chunk as CommonJS into dist/ (every import
// kept external; the source maps chain back to src/).
//
// The generated validators are loaded with a synchronous `require` (see
// src/validation/validator.ts): each set is a CommonJS bundle of its own
// (stateless code, built apart), and `lazy` turns every import of it into a
// require of its file in dist/. The sandbox CLI (dist/sandbox.cjs) is one
// CommonJS bundle: a process of its own shares nothing with the extension,
// and its extension keeps it out of the .vsix (.vscodeignore ships dist/*.js).
// A pull's thread (dist/pullThread.js) is a CommonJS bundle of its own too. The `oms` command line
// (dist/oms.cjs) is one CommonJS file with everything inside, shipped in the .vsix.
const esbuild = require('esbuild');
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

const release = process.argv.includes('--release');
const watch = process.argv.includes('--watch');
const dist = path.join(__dirname, 'dist');
const staging = path.join(dist, 'esm');

/** Bundle name -> module loaded with a synchronous require on first use. */
const lazy = {
  validators: 'src/validation/generated/validators.js',
  firstErrorValidators: 'src/validation/generated/firstErrorValidators.js',
};
const lazyFiles = new Map(Object.entries(lazy).map(([name, file]) => [path.resolve(__dirname, file), name]));

/** Marks the resolve a plugin asks esbuild for, so that no plugin handles it again. */
const nested = 'nested-resolve';
const resolveAsUsual = (build, args) => build.resolve(args.path, { resolveDir: args.resolveDir, kind: args.kind, importer: args.importer, pluginData: nested });

/** Imports of a `lazy` module become requires of its bundle instead of a copy. */
const lazyBundles = {
  name: 'lazy-bundles',
  setup(build) {
    build.onResolve({ filter: /^\./ }, async (args) => {
      if (args.kind === 'entry-point' || args.pluginData === nested) return undefined;
      const resolved = await resolveAsUsual(build, args);
      const name = lazyFiles.get(resolved.path);
      return name ? { path: `./${name}.js`, external: true } : resolved;
    });
  },
};

/**
 * Activation loads the entry and the chunks it imports, and all of that stays
 * in memory: code behind an `import()` always loads after it. esbuild makes a
 * chunk per set of entry points that share a module, so the activation set
 * came in 8 files. Each `import()` target here also imports the entry: then
 * every module of the activation set is shared by all entry points alike and
 * lands in one chunk (2 files at activation, the entry a stub). Loading the
 * bundle in Node went from 8.5 to 5 ms, half of the difference in resolving files.
 */
const oneActivationChunk = {
  name: 'one-activation-chunk',
  setup(build) {
    const entry = path.resolve(__dirname, 'src/extension.ts');
    const loadedLater = new Set();
    build.onResolve({ filter: /.*/ }, async (args) => {
      if (args.kind !== 'dynamic-import' || args.pluginData === nested) return undefined;
      const resolved = await resolveAsUsual(build, args);
      loadedLater.add(resolved.path);
      return resolved;
    });
    build.onLoad({ filter: /\.ts$/ }, (args) =>
      loadedLater.has(args.path)
        ? // At the end, so that the source map's lines stay those of the file (an import is hoisted anyway).
          { contents: `${fs.readFileSync(args.path, 'utf8')}\nimport ${JSON.stringify(entry)};\n`, loader: 'ts' }
        : undefined,
    );
  },
};

/**
 * Second pass: each chunk on its own, every import left as a require. src/
 * imports `vscode` as `import vscode = require('vscode')` (the lint holds it),
 * so the chunks require the host's object itself: an ES namespace import of an
 * external becomes `__toESM(require(…))` in CommonJS, a copy of its few hundred
 * properties in every module that imports it.
 */
const onlyThisFile = {
  name: 'only-this-file',
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) => (args.kind === 'entry-point' ? undefined : { path: args.path, external: true }));
  },
};

const common = { bundle: true, platform: 'node', target: 'node18', minify: release, sourcemap: !release, logLevel: 'warning' };

const chunks = {
  ...common,
  entryPoints: { extension: 'src/extension.ts' },
  outdir: staging,
  format: 'esm',
  splitting: true,
  chunkNames: '[name]-[hash]',
  external: ['vscode'],
  plugins: [oneActivationChunk, lazyBundles],
  // ES module builds first: jsonc-parser's UMD build loads its parts with a require esbuild cannot follow.
  mainFields: ['module', 'main'],
  metafile: true,
};

const validators = { ...common, entryPoints: lazy, outdir: dist, format: 'cjs' };

/** The sandbox CLI runs in a process of its own: one CommonJS bundle, sharing no state with the extension's chunks. */
const cli = { ...common, entryPoints: { sandbox: 'src/sandbox/cli.ts' }, outdir: dist, outExtension: { '.js': '.cjs' }, format: 'cjs', plugins: [lazyBundles] };

/** A pull's thread (src/changes/code/pullWriter.ts starts it): a CommonJS bundle of its own, loaded only by a pull. */
const pullThread = { ...common, entryPoints: { pullThread: 'src/changes/code/pullThread.ts' }, outdir: dist, format: 'cjs' };

/**
 * The `oms` command line (src/cli/main.ts): one CommonJS file that runs with Node alone, so a CI job
 * needs nothing else. The validators are bundled inside it, and the pull threads' code as a string.
 */
const omsCli = () => ({
  ...common,
  entryPoints: { oms: 'src/cli/main.ts' },
  outdir: dist,
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  // The validators that stop at the first error are the sandbox's (its batches): left out, they would be 40% of the file.
  plugins: [{ name: 'no-first-error-validators', setup: (b) => b.onResolve({ filter: /firstErrorValidators$/ }, (a) => ({ path: a.path, external: true })) }],
  define: {
    OMS_VERSION: JSON.stringify(require('./package.json').version),
    OMS_PULL_THREAD: JSON.stringify(fs.readFileSync(path.join(dist, 'pullThread.js'), 'utf8').replace(/\n\/\/# sourceMappingURL=.*\s*$/, '\n')),
  },
});

/** Writes every chunk of the split as CommonJS into dist/ (nothing else there), and the metafile of the split. */
async function toCommonJs(metafile) {
  for (const f of fs.readdirSync(dist)) if (/\.c?js(\.map)?$/.test(f)) fs.rmSync(path.join(dist, f));
  const files = Object.keys(metafile.outputs)
    .filter((f) => f.endsWith('.js'))
    .map((f) => path.resolve(__dirname, f));
  await esbuild.build({
    ...common,
    entryPoints: files,
    outdir: dist,
    format: 'cjs',
    plugins: [onlyThisFile],
    // `import()` of a chunk becomes a require: the extension host's loader, no ESM.
    supported: { 'dynamic-import': false },
  });
  await Promise.all([esbuild.build(validators), esbuild.build(cli), esbuild.build(pullThread)]);
  await esbuild.build(omsCli());
  fs.writeFileSync(path.join(dist, 'meta.json'), JSON.stringify(metafile));
}

(async () => {
  // The validators are generated from schemas/ first (ajv standalone code).
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/validators.ts'], { stdio: 'inherit', cwd: __dirname });
  if (process.argv.includes('--cli')) {
    // The command line alone (its tests build what they run): the pull threads, then dist/oms.cjs.
    await esbuild.build(pullThread);
    await esbuild.build(omsCli());
    return;
  }
  // The schemas of pulled files while edited (package.json's jsonValidation).
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/fileSchemas.ts'], { stdio: 'inherit', cwd: __dirname });
  fs.rmSync(staging, { recursive: true, force: true });
  if (watch) {
    const ctx = await esbuild.context({
      ...chunks,
      plugins: [...chunks.plugins, { name: 'to-commonjs', setup: (b) => b.onEnd((r) => r.errors.length === 0 && toCommonJs(r.metafile)) }],
    });
    await ctx.watch();
  } else {
    const result = await esbuild.build(chunks);
    await toCommonJs(result.metafile);
  }
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
