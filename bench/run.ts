// `npm run bench`: every bench/*.bench.ts, one after the other, each in a process of its own.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const benches = fs.readdirSync(__dirname).filter((f) => f.endsWith('.bench.ts')).sort();
let failed = 0;
for (const file of benches) {
  console.log(`\n# ${file}\n`);
  try {
    execFileSync(process.execPath, ['--import', 'tsx', path.join(__dirname, file), ...process.argv.slice(2)], { stdio: 'inherit' });
  } catch {
    failed++;
    console.log(`# ${file} failed`);
  }
}
process.exit(failed ? 1 : 0);
