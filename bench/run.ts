// `npm run bench`: every bench/*.bench.ts, one after the other, each in a process of its own. What they print
// is shown as it comes and written to bench/RESULTS.md, headed by the machine it ran on: the one results file.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const args = process.argv.slice(2);
const benches = fs
  .readdirSync(__dirname)
  .filter((f) => f.endsWith('.bench.ts'))
  .sort();
const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(', ');

/** Runs one bench, echoing its output and returning it (stdout and stderr as they interleave). */
function run(file: string): Promise<{ ok: boolean; output: string; seconds: number }> {
  const started = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, file), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => {
    process.stdout.write(d);
    output += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    process.stderr.write(d);
    output += d.toString();
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ ok: code === 0, output, seconds: (Date.now() - started) / 1000 })));
}

async function main(): Promise<void> {
  const cpus = os.cpus();
  const header = [
    '# Benchmark results',
    '',
    `Written by \`npm run bench${args.length ? ` -- ${args.join(' ')}` : ''}\` from its own output; run it again to replace this file.`,
    '',
    `- date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    `- machine: ${cpus.length} cores, ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GB memory, ${os.type()} ${os.release()}`,
    `- Node ${process.version}`,
    `- load average (1, 5, 15 min) at the start: ${load()}`,
  ];
  const sections: string[] = [];
  let failed = 0;
  for (const file of benches) {
    console.log(`\n# ${file}\n`);
    const r = await run(file);
    if (!r.ok) {
      failed++;
      console.log(`# ${file} failed`);
    }
    sections.push(
      `## ${file}${r.ok ? '' : ' (failed)'}\n\n${r.seconds.toFixed(0)} s; load average after: ${load()}\n\n\`\`\`text\n${r.output.trimEnd()}\n\`\`\``,
    );
  }
  header.push(`- load average (1, 5, 15 min) at the end: ${load()}`);
  fs.writeFileSync(path.join(__dirname, 'RESULTS.md'), `${[header.join('\n'), ...sections].join('\n\n')}\n`);
  console.log(`\nwritten to ${path.relative(process.cwd(), path.join(__dirname, 'RESULTS.md'))}`);
  process.exit(failed ? 1 : 0);
}

void main();
