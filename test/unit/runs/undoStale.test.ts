/**
 * Undo Run… when someone changed every object of the run since: nothing can be put back as it was,
 * so the preview offers no send; once it is cancelled, Merge is still offered, and merging puts the
 * run's own change back while keeping the change made since. Against a real sandbox, the command as
 * the palette runs it, with the `vscode` stand-in answering its questions.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ui } from './hostShim';
import { sandboxServices } from './sandboxServices';
import type { Sandbox } from '../../../src/sandbox/server';
import { bulkChanges, type Target } from '../../../src/changes/bulk';
import { RunJournal } from '../../../src/changes/runJournal';
import type { Connection } from '../../../src/connection/connection';
import type { Services } from '../../../src/commands/framework/command';
import { undoRun } from '../../../src/commands/bulk/undoRun';
import { kind } from '../../../src/model/kinds';
import { newObject } from '../../../src/model/templates';
import type { BaseInfo } from '../../../src/model/types';
import { sendChanges } from '../../../src/runs/core/changesRun';
import { editorView } from '../../../src/runs/vscodeHost';
import { Api } from '../sandbox/harness';

const scanner = kind('inputScanner');
let sb: Sandbox;
let api: Api;
let connection: Connection;
let s: Services;
let storage: string;

before(async () => {
  ({ sb, api, connection, s, storage } = await sandboxServices());
});
after(() => sb.close());

/** The answer to a preview's question: its entry whose label holds `text`. */
const choose = (text: string) => (items: unknown[]) => (items as Array<{ label: string }>).find((i) => i.label.includes(text));

test("Undo Run with every object changed since: the preview offers no send, and after its Cancel Merge is offered and puts the run's change back", async () => {
  const at = (key: string) => `/api/f/${sb.instanceKey}/inputscanners/${key}`;
  const targets: Target[] = [];
  for (const name of ['Stale A', 'Stale B']) {
    const made = (await api.post(`/api/f/${sb.instanceKey}/inputscanners`, newObject(scanner, name))).body as BaseInfo;
    targets.push({ kind: scanner, folderKey: sb.instanceKey, key: made.Key!, name });
  }
  const journal = new RunJournal(join(storage, 'runs'));
  const op = { type: 'addTag' as const, tag: 'night-shift' };
  const run = await sendChanges(
    { view: editorView, events: { wrote: () => undefined, ended: () => Promise.resolve() } },
    { connection, journal, title: 'Tag', changes: bulkChanges(targets, op), header: { recipe: { type: 'bulk', operation: op } }, words: { runLabel: '' } },
    false,
  );
  assert.deepEqual(
    run.results.map((r) => r.outcome),
    ['applied', 'applied'],
  );
  // Someone changes another field of both since the run.
  for (const t of targets) {
    const now = (await api.get(at(t.key))).body as BaseInfo;
    assert.ok((await api.put(at(t.key), { ...now, NonSettlingErrorPriority: 7 })).status < 300);
  }

  ui.reset();
  ui.answers.push(choose('Cancel'), choose('continue after errors'));
  ui.presses.push('Merge…');
  await undoRun.run(s, { connectionId: 'c1', runId: run.runId });

  const [preview, merged] = ui.picks;
  assert.match(preview.title ?? '', /2 stale/, preview.title);
  assert.ok(!preview.labels.some((l) => /Put back/.test(l)), `the preview offers a send: ${preview.labels.join(' | ')}`);
  const offer = ui.messages.findIndex((m) => /2 objects were changed by someone since the run/.test(m));
  assert.ok(offer >= 0, `no word of the stale objects after Cancel: ${ui.messages.join(' | ')}`);
  assert.deepEqual(ui.buttons[offer], ['Merge…']);
  assert.ok(merged, 'Merge showed no preview');
  for (const t of targets) {
    const now = (await api.get(at(t.key))).body as BaseInfo;
    assert.deepEqual(now.Tags ?? [], [], `${t.name}: the run's tag is put back`);
    assert.equal(now.NonSettlingErrorPriority, 7, `${t.name}: the change made since is kept`);
  }
});
