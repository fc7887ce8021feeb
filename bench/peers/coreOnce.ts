/**
 * One pull, plan or apply of the extension's core (src/changes/code/) in a fresh process, as `oms` runs it: its first
 * run, the code not yet warm; an apply with the editor's run journal and report (editorApply.ts). Prints `{ ms, cpuMs }`
 * of the work alone (the binding is read before). cli.bench.ts runs it.
 *   coreOnce pull <url> <folderKey> <root> | plan <url> <root> <planFile> | apply <url> <root> <planFile>   (OMS_TOKEN)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { createHttp } from '../../src/api/http';
import { OmsClient } from '../../src/api/client';
import { makePlan } from '../../src/changes/code/plan';
import { planFileText, readPlanFile } from '../../src/changes/code/planFile';
import { bindingOf, pull } from '../../src/changes/code/pull';
import { useThreadCode } from '../../src/changes/code/pullWriter';
import { editorApply } from './editorApply';

async function main(): Promise<void> {
  const [op, url, ...rest] = process.argv.slice(2);
  const token = process.env.OMS_TOKEN!;
  const client = new OmsClient(createHttp({ baseUrl: url, token: () => token }));
  const binding = await bindingOf(client, new URL(url).host, url);
  // The threads run the bundle oms carries, not the source (which they would bundle first).
  useThreadCode(readFileSync(path.join(__dirname, '..', '..', 'dist', 'pullThread.js'), 'utf8'));
  const saved = op === 'apply' ? await readPlanFile(rest[1]) : undefined;
  const t = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  if (op === 'pull') await pull(client, rest[1], binding, { scope: { folderKey: rest[0], recursive: false, kinds: ['inputScanner'] } });
  if (op === 'plan') writeFileSync(rest[1], planFileText((await makePlan(client, rest[0], binding, { includeDeletes: true })).plan));
  if (saved) await editorApply(client, rest[0], binding, saved);
  const used = process.cpuUsage(cpu);
  process.stdout.write(JSON.stringify({ ms: Number(process.hrtime.bigint() - t) / 1e6, cpuMs: (used.user + used.system) / 1000 }));
  process.exit(0); // idle pull threads and kept-alive sockets would hold the process
}

void main();
