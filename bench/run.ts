// `npm run bench`: every bench/*.bench.ts, one after the other, each in a process of its own. What they print
// is shown as it comes and written to bench/RESULTS.md, headed by the machine it ran on: the one results file.
// `npm run bench -- query live` runs only the benches so named and replaces only their sections of the file.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const all = fs
  .readdirSync(__dirname)
  .filter((f) => f.endsWith('.bench.ts'))
  .sort();
const named = (arg: string) => all.find((f) => f === arg || f === `${arg}.bench.ts`);
const chosen = process.argv.slice(2).filter((a) => named(a));
/** What is not a bench's name goes to every bench (sizes, options). */
const args = process.argv.slice(2).filter((a) => !named(a));
const benches = chosen.length ? chosen.map((a) => named(a)!) : all;
const resultsFile = path.join(__dirname, 'RESULTS.md');
const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(', ');
const now = () => `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** The sections of the results file as it is, by bench file (kept for the benches not run now). */
function earlierSections(): Map<string, string> {
  const text = fs.existsSync(resultsFile) ? fs.readFileSync(resultsFile, 'utf8') : '';
  const found = new Map<string, string>();
  for (const part of text.split(/\n(?=## \S+\.bench\.ts)/).slice(1)) {
    const file = /^## (\S+)/.exec(part)?.[1];
    if (file && all.includes(file)) found.set(file, part.trimEnd());
  }
  return found;
}

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
  const cpuModel = cpus[0]?.model.trim() ?? 'unknown CPU';
  const header = [
    '# Benchmark results',
    '',
    `Written by \`npm run bench\` from its own output; run it again to replace this file (\`npm run bench -- query\` replaces one bench's section).`,
    '',
    `- date: ${now()}${chosen.length ? ` (${benches.join(', ')}; each section says when it ran)` : ''}`,
    `- machine: ${cpus.length} cores, ${cpuModel}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GB memory, ${os.type()} ${os.release()}`,
    `- Node ${process.version}`,
    `- load average (1, 5, 15 min) at the start: ${load()}`,
  ];
  const sections = chosen.length ? earlierSections() : new Map<string, string>();
  let failed = 0;
  for (const file of benches) {
    console.log(`\n# ${file}\n`);
    const r = await run(file);
    if (!r.ok) {
      failed++;
      console.log(`# ${file} failed`);
    }
    const how = `${now()}${args.length ? `, \`-- ${args.join(' ')}\`` : ''}; ${r.seconds.toFixed(0)} s; load average after: ${load()}`;
    sections.set(file, `## ${file}${r.ok ? '' : ' (failed)'}\n\n${how}\n\n\`\`\`text\n${r.output.trimEnd()}\n\`\`\``);
  }
  header.push(`- load average (1, 5, 15 min) at the end: ${load()}`);
  const ordered = all.filter((f) => sections.has(f)).map((f) => sections.get(f)!);
  fs.writeFileSync(resultsFile, `${[header.join('\n'), ...ordered].join('\n\n')}\n`);
  console.log(`\nwritten to ${path.relative(process.cwd(), resultsFile)}`);
  process.exit(failed ? 1 : 0);
}

void main();
