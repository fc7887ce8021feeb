/**
 * Batch-Add People through the run core against a real sandbox: each batch's people journalled by
 * row before the batch is sent and their outcome after; a batch the sandbox refuses (its fault rules)
 * is failed per batch and Retry Failed sends only its people; a batch with no clear answer (5xx) is
 * "unknown" and never sent again; stop-on-error is asked once, through the host; a run killed while
 * a batch is unanswered leaves a journal from which a retry sends nobody twice (POSTs counted by the
 * sandbox's /sandbox/stats).
 */
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, Sandbox } from '../../../src/sandbox/server';
import { createHttp } from '../../../src/api/http';
import { OmsClient } from '../../../src/api/client';
import { RunJournal } from '../../../src/changes/runJournal';
import type { Connection } from '../../../src/connection/connection';
import { kind } from '../../../src/model/kinds';
import { newObject } from '../../../src/model/templates';
import type { PersonInfo } from '../../../src/model/types';
import { peopleOf, sendPeopleRun, type PeopleRun, type PersonToAdd } from '../../../src/runs/core/peopleRun';
import { outstandingRuns, retrySelection } from '../../../src/runs/core/retry';
import type { RunHost, RunRecord } from '../../../src/runs/core/run';
import { undoSelection } from '../../../src/runs/core/undo';
import { Api } from '../sandbox/harness';

let sb: Sandbox;
let api: Api;
let connection: Connection;
let folderKey: string;
let complex: string;
const approvals: string[] = [];

before(async () => {
  sb = await startSandbox({ port: 0, seed: 'empty' });
  api = new Api(sb);
  const client = new OmsClient(createHttp({ baseUrl: sb.url, token: () => sb.token }));
  folderKey = sb.instanceKey;
  complex = `/api/f/${folderKey}/people/complex`;
  connection = {
    id: 'c1',
    info: { id: 'c1', label: 'Sandbox', baseUrl: sb.url },
    client,
    approveWrites: (what: string) => (approvals.push(what), Promise.resolve({ what })),
  } as unknown as Connection;
});
after(() => sb.close());
beforeEach(async () => {
  approvals.length = 0;
  await api.call('DELETE', '/sandbox/faults');
});

/** A host that answers stop-on-error with `stop` and records each question and report. */
function host(stop = false): RunHost & { asked: string[]; reports: RunRecord[] } {
  const asked: string[] = [];
  const reports: RunRecord[] = [];
  return {
    asked,
    reports,
    view: {
      progress: (_title, work) => work(() => undefined, new AbortController().signal),
      confirm: () => Promise.resolve(undefined),
      stopOnError: (title) => (asked.push(title), Promise.resolve(stop)),
      say: () => undefined,
      report: (r) => void reports.push(r),
    },
  };
}

/** `n` people tagged `tag`, from lines 2… of a file. */
function people(n: number, tag: string): PersonToAdd[] {
  return Array.from({ length: n }, (_, i) => ({
    row: `line ${i + 2}`,
    person: { ...newObject(kind('person'), `${tag} ${i}`), GivenName: `${tag}${i}`, Surname: tag, Tags: [tag] },
  }));
}

const journalDir = async () => join(await mkdtemp(join(tmpdir(), 'oms-people-')), 'runs');
const tagged = async (tag: string) => ((await api.get(`/api/f/${folderKey}/people?pageSize=1000`)).body as PersonInfo[]).filter((p) => p.Tags?.includes(tag));
/** Batch requests the sandbox has answered so far. */
async function posts(): Promise<number> {
  const routes = ((await api.get('/sandbox/stats')).body as { requests: { routes: Record<string, number> } }).requests.routes;
  return Object.entries(routes)
    .filter(([route]) => route.startsWith('POST ') && route.endsWith('/people/complex'))
    .reduce((n, [, count]) => n + count, 0);
}

function spec(journal: RunJournal, list: PersonToAdd[], extra: Partial<PeopleRun> = {}): PeopleRun {
  return { connection, journal, title: 'Add people', folderKey, people: list, batchSize: 2, concurrency: 1, source: 'staff.csv', ...extra };
}

test('each batch’s people are journalled by row before the batch is sent, their outcomes after; one approval names the batches', async () => {
  const journal = new RunJournal(await journalDir());
  const list = people(5, 'order');
  const h = host();
  const run = await sendPeopleRun(h, spec(journal, list, { stopOnError: false }));
  assert.equal(approvals.length, 1);
  assert.match(approvals[0], /5 people from staff\.csv in 3 batch requests/);
  assert.deepEqual(
    run.results.map((r) => r.outcome),
    Array(5).fill('applied'),
  );
  assert.equal(h.reports.length, 1, 'one report');
  const lines = (await readFile(join(journal.dir, `${run.runId}.jsonl`), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { id?: string; intent?: boolean; outcome?: string; recipe?: unknown });
  assert.deepEqual(lines[0].recipe, { type: 'people', folderKey, batchSize: 2 });
  const at = (id: string, intent: boolean) => lines.findIndex((l) => l.id === id && !!l.intent === intent);
  // Batch by batch: both intents of a batch, then both outcomes, then the next batch's intents.
  const order = lines.slice(1, -1).map((l) => `${l.intent ? 'intent' : l.outcome} ${l.id}`);
  assert.deepEqual(order, [
    'intent line 2',
    'intent line 3',
    'applied line 2',
    'applied line 3',
    'intent line 4',
    'intent line 5',
    'applied line 4',
    'applied line 5',
    'intent line 6',
    'applied line 6',
  ]);
  for (const p of list) assert.ok(at(p.row, true) < at(p.row, false));
  assert.equal((await tagged('order')).length, 5);
  // Undo Run says plainly why it puts nothing back.
  const undo = await undoSelection(journal, run.runId);
  assert.equal(undo.changes.length, 0);
  assert.match(undo.notes[0].note, /cannot be undone: the service answers a batch with a count, not the Keys .* \(5 added or maybe added\)/);
});

test('a refused batch fails per batch; Retry Failed sends only its people, from the journal; a 5xx batch is unknown and never sent again', async () => {
  const journal = new RunJournal(await journalDir());
  const list = people(6, 'refused');
  // Batch 1 refused (400: nothing was made), batch 2 answered 500 (it may have been made), batch 3 added.
  await api.post('/sandbox/faults', { path: complex, method: 'POST', status: 400, count: 1 });
  await api.post('/sandbox/faults', { path: complex, method: 'POST', status: 500, count: 1 });
  const before = await posts();
  const run = await sendPeopleRun(host(), spec(journal, list, { stopOnError: false }));
  assert.equal((await posts()) - before, 3);
  assert.deepEqual(
    run.results.map((r) => `${r.id} ${r.outcome}`),
    ['line 2 failed', 'line 3 failed', 'line 4 failed', 'line 5 failed', 'line 6 applied', 'line 7 applied'],
  );
  assert.match(run.results[2].reason ?? '', /may have been created/);
  const { entries } = await journal.read(run.runId);
  const outcome = new Map(entries.map((e) => [e.id, e.outcome]));
  assert.deepEqual(
    list.map((p) => outcome.get(p.row)),
    ['failed', 'failed', 'unknown', 'unknown', 'applied', 'applied'],
  );

  // The retry, from the journal on disk: the refused batch's people only; the unanswered one is named, not sent.
  const [outstanding] = await outstandingRuns(new RunJournal(journal.dir), undefined, run.runId);
  const selection = retrySelection(outstanding.entries);
  assert.deepEqual(
    selection.lostCreates.map((e) => e.id),
    ['line 4', 'line 5'],
  );
  assert.match(selection.lines.at(-1)!, /may have been created/);
  const again = peopleOf(selection.entries);
  assert.deepEqual(
    again.map((p) => p.person.CommonName),
    ['refused 0', 'refused 1'],
  );
  const beforeRetry = await posts();
  const retried = await sendPeopleRun(host(), spec(journal, again, { retryOf: run.runId }));
  assert.equal((await posts()) - beforeRetry, 1, 'one batch sent again');
  assert.deepEqual(
    retried.results.map((r) => r.outcome),
    ['applied', 'applied'],
  );
  const names = (await tagged('refused')).map((p) => p.CommonName).sort();
  assert.deepEqual(names, ['refused 0', 'refused 1', 'refused 4', 'refused 5'], 'the 500 batch was refused before any work: its people stay out, nobody twice');
  // Settled by the retry: nothing is offered again but what may have been created.
  const [left] = await outstandingRuns(journal, undefined, run.runId);
  assert.deepEqual(
    left.entries.map((e) => `${e.id} ${e.outcome}`),
    ['line 4 unknown', 'line 5 unknown'],
  );
});

test('stop at the first error is asked once, through the host; after a refused batch nothing more is sent, and the rest is kept to send', async () => {
  const journal = new RunJournal(await journalDir());
  const list = people(6, 'stopping');
  await api.post('/sandbox/faults', { path: complex, method: 'POST', status: 400, count: 1 });
  const h = host(true);
  const before = await posts();
  const run = await sendPeopleRun(h, spec(journal, list));
  assert.deepEqual(h.asked, ['Add people'], 'asked once');
  assert.equal((await posts()) - before, 1, 'nothing sent after the refused batch');
  assert.deepEqual(
    run.results.map((r) => r.outcome),
    ['failed', 'failed', 'notSent', 'notSent', 'notSent', 'notSent'],
  );
  const [outstanding] = await outstandingRuns(journal, undefined, run.runId);
  assert.deepEqual(
    peopleOf(retrySelection(outstanding.entries).entries).map((p) => p.row),
    list.map((p) => p.row),
  );
  // One batch: nothing to stop after it, nothing asked.
  const one = host(true);
  await sendPeopleRun(one, spec(journal, people(2, 'single')));
  assert.deepEqual(one.asked, []);
});

test('a run killed while a batch is unanswered: its journal names that batch’s people as maybe created, and a retry sends nobody twice', async () => {
  const dir = await journalDir();
  const list = people(6, 'killed');
  // Batch 1 refused; batch 2 is made at once and its answer held back 5 s: the run is killed waiting for it.
  await api.post('/sandbox/faults', { path: complex, method: 'POST', status: 400, count: 1 });
  await api.post('/sandbox/faults', { path: complex, method: 'POST', delayMs: 5_000, count: 1 });
  const before = await posts();
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'peopleRunChild.ts')], {
    env: { ...process.env, OMS_URL: sb.url, OMS_TOKEN: sb.token, OMS_DIR: dir, OMS_FOLDER: folderKey, OMS_PEOPLE: JSON.stringify(list) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  for (let i = 0; i < 400 && (await tagged('killed')).length < 2; i++) await new Promise((r) => setTimeout(r, 25));
  child.kill('SIGKILL');
  await once(child, 'exit');
  assert.doesNotMatch(out, /ended/, 'killed before the run ended');
  assert.equal((await tagged('killed')).length, 2, 'batch 2 was made, unanswered');
  // The sandbox counts a request once answered: the held-back answer (to nobody) comes first.
  for (let i = 0; i < 400 && (await posts()) - before < 2; i++) await new Promise((r) => setTimeout(r, 25));
  assert.equal((await posts()) - before, 2);

  const journal = new RunJournal(dir);
  const runId = /run (\S+)/.exec(out)![1];
  const [outstanding] = await outstandingRuns(journal, undefined, runId);
  const selection = retrySelection(outstanding.entries);
  assert.deepEqual(
    selection.lostCreates.map((e) => e.id),
    ['line 4', 'line 5'],
  );
  const again = peopleOf(selection.entries);
  assert.deepEqual(
    again.map((p) => p.row),
    ['line 2', 'line 3'],
  );
  await sendPeopleRun(host(), spec(journal, again, { retryOf: runId }));
  assert.equal((await posts()) - before, 3, 'one batch more');
  const names = (await tagged('killed')).map((p) => p.CommonName);
  assert.equal(new Set(names).size, names.length, `nobody twice: ${names.join(', ')}`);
  assert.deepEqual(names.sort(), ['killed 0', 'killed 1', 'killed 2', 'killed 3']);
});
