// `npm run oms -- <args>`: the `oms` command line from a checkout; builds dist/ first when it is not there yet.
const { execFileSync, spawnSync } = require('child_process');
const { existsSync } = require('fs');
const path = require('path');

const root = path.join(__dirname, '..');
const cli = path.join(root, 'dist', 'oms.cjs');
if (!existsSync(cli)) execFileSync(process.execPath, ['esbuild.js'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
const run = spawnSync(process.execPath, [cli, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(run.status ?? 1);
