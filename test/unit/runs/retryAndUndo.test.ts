/**
 * Retry Failed… and Undo Run… as the palette runs them, against a real sandbox with the `vscode`
 * stand-in answering: the retry preview says how many objects are sent again and how many were
 * never sent; Show Results says each outcome in words; Undo Run of a run that was retried undoes
 * the retry's writes too, and says so.
 */
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { ui } from './hostShim';
import { sandboxServices } from './sandboxServices';
import type { Sandbox } from '../../../src/sandbox/server';
import { bulkChanges, type Target } from '../../../src/changes/bulk';
import type { Connection } from '../../../src/connection/connection';
import type { Services } from '../../../src/commands/framework/command';
import { retryFailedRun } from '../../../src/commands/bulk/retryFailedRun';
import { undoRun } from '../../../src/commands/bulk/undoRun';
import { kind } from '../../../src/model/kinds';
import { newObject } from '../../../src/model/templates';
import type { BaseInfo } from '../../../src/model/types';
import { sendChanges } from '../../../src/runs/core/changesRun';
import { editorView, machineJournal } from '../../../src/runs/vscodeHost';
import { Api } from '../sandbox/harness';

const scanner = kind('inputScanner');
let sb: Sandbox;
let api: Api;
let connection: Connection;
let s: Services;

before(async () => {
  ({ sb, api, connection, s } = await sandboxServices());
});
after(() => sb.close());
beforeEach(() => ui.reset());

const choose = (text: string) => (items: unknown[]) => (items as Array<{ label: string }>).find((i) => i.label.includes(text));
const at = (t: Target) => `/api/f/${sb.instanceKey}/inputscanners/${t.key}`;
const tagsOf = async (t: Target) => ((await api.get(at(t))).body as BaseInfo).Tags ?? [];

async function scanners(n: number, prefix: string): Promise<Target[]> {
  const out: Target[] = [];
  for (let i = 0; i < n; i++) {
    const made = (await api.post(`/api/f/${sb.instanceKey}/inputscanners`, newObject(scanner, `${prefix} ${i}`))).body as BaseInfo;
    out.push({ kind: scanner, folderKey: sb.instanceKey, key: made.Key!, name: made.CommonName! });
  }
  return out;
}

/** A bulk run stopped at its first error: the first object failed (a 500 from the sandbox's faults), those under way applied, the rest never sent. */
async function stoppedRun(targets: Target[], tag: string) {
  await api.post('/sandbox/faults', { path: at(targets[0]), method: 'PUT', status: 500, count: 1 });
  const op = { type: 'addTag' as const, tag };
  return sendChanges(
    { view: editorView },
    {
      connection,
      journal: machineJournal(s),
      title: `Tag ${tag}`,
      changes: bulkChanges(targets, op),
      header: { recipe: { type: 'bulk', operation: op } },
      words: { runLabel: '' },
    },
    true,
  );
}

test('Show Results says each outcome in words, and the retry preview counts objects sent before apart from those never sent', async () => {
  const targets = await scanners(10, 'Words');
  const run = await stoppedRun(targets, 'words');
  const count = (o: string) => run.results.filter((r) => r.outcome === o).length;
  assert.equal(count('failed'), 1);
  assert.ok(count('notSent') >= 2, run.results.map((r) => r.outcome).join(' '));

  ui.reset();
  ui.presses.push('Show Results');
  const { reportRun } = await import('../../../src/runs/report');
  reportRun(run);
  await new Promise((r) => setTimeout(r, 50));
  const results = ui.documents.at(-1)?.text ?? '';
  assert.match(results, /^not sent {2}Words \d+ /m, results);
  assert.doesNotMatch(results, /notSent/, 'no raw outcome key');

  ui.reset();
  ui.answers.push(choose('Cancel'));
  await retryFailedRun.run(s, { runId: run.runId });
  const [preview] = ui.picks;
  assert.ok(preview, 'no retry preview');
  const send = preview.labels.find((l) => /continue after errors/.test(l)) ?? '';
  assert.ok(
    send.includes(`Send 1 object sent before (failed or no answer), ${count('notSent')} objects never sent, continue after errors`),
    preview.labels.join(' | '),
  );
});

test('Undo Run of a retried run puts back what the retry wrote too, and its preview and report name the retry', async () => {
  const targets = await scanners(3, 'Undo');
  const run = await stoppedRun(targets, 'night');
  ui.reset();
  await retryFailedRun.run(s, { runId: run.runId, stopOnError: false });
  for (const t of targets) assert.deepEqual(await tagsOf(t), ['night'], `${t.name}: tagged by the run or its retry`);

  ui.reset();
  ui.answers.push(choose('continue after errors'));
  await undoRun.run(s, { runId: run.runId });
  const [preview] = ui.picks;
  assert.match(preview.title ?? '', /Undo of “Tag night” and its Retry Failed run/, preview.title);
  assert.ok(
    preview.labels.some((l) => /Also undone, the runs that sent its failed objects again: Retry of 1 object of “Tag night”/.test(l)),
    preview.labels.join(' | '),
  );
  assert.ok(
    preview.labels.some((l) => /Put back 3 objects/.test(l)),
    preview.labels.join(' | '),
  );
  for (const t of targets) assert.deepEqual(await tagsOf(t), [], `${t.name}: the tag is put back, the retry's too`);
  assert.ok(
    ui.messages.some((m) => /Undo of “Tag night” and its Retry Failed run: 3 applied/.test(m)),
    ui.messages.join(' | '),
  );
});
