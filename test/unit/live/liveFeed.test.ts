/**
 * Live reads as events, against a real sandbox: what the feed reads (what visible consumers show, and
 * nothing of a hidden one), the one event a poll's answer makes (pages, objects, gone objects), a
 * plan's lists read and compared object by object, and the connection named alike in failure and
 * recovery.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createHttp, RequestLog } from '../../../src/api/http';
import { OmsClient } from '../../../src/api/client';
import { makePlan } from '../../../src/changes/code/plan';
import { movedSincePlan } from '../../../src/changes/code/planFollows';
import { bindingOf, pull } from '../../../src/changes/code/pull';
import type { ConnectionBinding } from '../../../src/changes/code/manifest';
import { kind } from '../../../src/model/kinds';
import { LiveFeed, type LiveConsumer, type LiveRead, type PollHost } from '../../../src/live/liveFeed';
import type { WatchedGroup } from '../../../src/live/liveReads';
import { Api, start } from '../sandbox/harness';

const scanners = kind('inputScanner');
const people = kind('person');
let api: Api;
let logs: RequestLog[];
let client: OmsClient;

before(async () => {
  api = await start({ seed: 'demo' });
  logs = [];
  client = new OmsClient(createHttp({ baseUrl: api.sb.url, token: () => api.sb.token, backoffMs: 10, log: (e) => logs.push(e) }));
});
after(() => api.sb.close());

async function until(probe: () => boolean, what: string, ms = 10_000): Promise<void> {
  for (const end = Date.now() + ms; !probe();) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A feed of one connection labelled "Sandbox" (its id another), polling every 50 ms, with what it said. */
function feedOf() {
  const said = { failed: [] as string[], recovered: [] as string[], states: [] as string[] };
  const host: PollHost = {
    source: () => client,
    intervalMs: () => 50,
    focused: () => true,
    connectionIds: () => ['env-sandbox'],
    label: () => 'Sandbox',
    signedIn: () => Promise.resolve(true),
    isSaving: () => false,
    failed: (label) => said.failed.push(label),
    recovered: (label) => said.recovered.push(label),
    error: (text) => assert.fail(text),
    state: (text) => said.states.push(text),
  };
  const feed = new LiveFeed(host, () => Promise.resolve(host));
  const reads: LiveRead[] = [];
  feed.onDidRead((r) => reads.push(r));
  return { feed, reads, said };
}

test('only what visible consumers show is read; a poll is one event with the pages read, the objects and the objects gone', async () => {
  const head = (await api.folder('Head Office')).Key;
  const warehouse = (await api.folder('Warehouse')).Key;
  const [open, doomed] = await api.listAll(warehouse, 'inputscanners');
  const { feed, reads } = feedOf();
  // The Objects view collapsed (not visible) with Head Office's people expanded; Object Changes and an editor visible.
  const expanded: WatchedGroup = { kind: people, folderKey: head, pageSize: 100, pages: 1, all: false };
  const hiddenTree: LiveConsumer = { visible: () => false, watched: () => ({ groups: [expanded], objects: [] }) };
  const planned: WatchedGroup = { kind: scanners, folderKey: warehouse, pageSize: 1000, pages: 1, all: true };
  const planView: LiveConsumer = { visible: () => true, watched: () => ({ groups: [planned], objects: [] }) };
  const editor: LiveConsumer = { visible: () => true, watched: () => ({ groups: [], objects: [{ kind: scanners, folderKey: warehouse, key: doomed.Key! }] }) };
  const held = [feed.watch(hiddenTree), feed.watch(planView), feed.watch(editor)];
  try {
    await until(() => reads.length >= 1, 'a first poll');
    const [first] = reads;
    assert.equal(first.connectionId, 'env-sandbox');
    assert.equal(first.groups.length, 1);
    assert.equal(first.groups[0].group, planned, "the read answers the consumer's own group");
    assert.ok(first.groups[0].complete);
    assert.deepEqual(
      first.objects.map((o) => o.object.Key),
      [doomed.Key],
      'the page covered the open scanner',
    );
    assert.equal(logs.filter((l) => l.path.includes(`/f/${head}/people`)).length, 0, 'nothing of the hidden view was read');

    // A rename and a deletion on the server: the next poll's event has the page with the rename, and the open scanner gone.
    await client.update(scanners, { ...open, CommonName: `${open.CommonName} (renamed)` });
    await client.delete(scanners, warehouse, doomed.Key!);
    const count = reads.length;
    await until(() => reads.slice(count).some((r) => r.gone.length), 'the deletion read');
    const last = reads[reads.length - 1];
    assert.deepEqual(
      last.gone.map((o) => o.key),
      [doomed.Key],
    );
    assert.ok(reads.slice(count).some((r) => r.groups.some((g) => g.items.some((o) => o.CommonName === `${open.CommonName} (renamed)`))));
    assert.equal(logs.filter((l) => l.path.includes(`/f/${head}/people`)).length, 0, 'still nothing of the hidden view');
  } finally {
    held.forEach((h) => h.dispose());
    feed.dispose();
  }
});

test('a failing connection is named as the user knows it when it fails and when it answers again', async () => {
  const warehouse = (await api.folder('Warehouse')).Key;
  const { feed, said } = feedOf();
  const reasons: Array<string | undefined> = [];
  await fetch(`${api.sb.url}/sandbox/faults`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${api.sb.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ path: `/api/f/${warehouse}/inputscanners`, status: 500, count: 1 }),
  });
  const held = feed.watch({
    visible: () => true,
    watched: () => ({ groups: [{ kind: scanners, folderKey: warehouse, pageSize: 100, pages: 1, all: false }], objects: [] }),
    following: (reason) => reasons.push(reason),
  });
  try {
    await until(() => said.recovered.length === 1, 'the recovery', 15_000);
    assert.deepEqual(said.failed, ['Sandbox']);
    assert.deepEqual(said.recovered, ['Sandbox']);
    assert.ok(
      reasons.some((r) => r?.startsWith('Sandbox did not answer')),
      `the consumer heard: ${JSON.stringify(reasons)}`,
    );
    await until(() => reasons[reasons.length - 1] === undefined, 'followed again');
  } finally {
    held.dispose();
    feed.dispose();
  }
});

test('a plan follows every object it listed: a rename of an unchanged object, a deletion and a creation on the server each move it', async () => {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'oms-plan-follows-'));
  try {
    const binding: ConnectionBinding = await bindingOf(client, 'Sandbox', api.sb.url);
    const floor1 = (await api.folder('Floor 1', (await api.folder('Head Office')).Key)).Key;
    await pull(client, root, binding, { scope: { folderKey: floor1, recursive: false, kinds: ['inputScanner'] } });
    const [renamed, deleted] = await api.listAll(floor1, 'inputscanners');
    const changes: Array<[string, () => Promise<unknown>]> = [
      ['a rename of an unchanged object', () => client.update(scanners, { ...renamed, CommonName: `${renamed.CommonName} (renamed)` })],
      ['a deletion', () => client.delete(scanners, floor1, deleted.Key!)],
      [
        'a creation',
        () => client.create(scanners, floor1, { ...renamed, Key: undefined, Href: undefined, ConcurrencyVersion: undefined, CommonName: 'New live scanner' }),
      ],
    ];
    for (const [what, change] of changes) {
      const planned = await makePlan(client, root, binding);
      assert.equal(planned.plan.entries.filter((e) => e.action !== 'behind').length, 0, 'nothing edited here');
      const { feed, reads } = feedOf();
      const groups = planned.lists.map((l) => ({ ...l, pageSize: 1000, pages: 1, all: true }));
      const held = feed.watch({ visible: () => true, watched: () => ({ groups, objects: [] }) });
      const moved = (r: LiveRead) =>
        movedSincePlan(
          planned,
          r.groups.map((g) => ({ ...g.group, items: g.items, whole: g.complete })),
          r.objects.map((o) => o.object),
          r.gone.map((o) => o.key),
        );
      try {
        await until(() => reads.length >= 1, 'a first poll');
        assert.equal(moved(reads[0]), false, `before ${what}: the server as planned`);
        await change();
        const count = reads.length;
        await until(() => reads.slice(count).some((r) => r.groups.length > 0), `a poll that read ${what}`);
        assert.ok(reads.slice(count).some(moved), what);
      } finally {
        held.dispose();
        feed.dispose();
      }
    }
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
});

test('live updates turned off while a check of the sign-in is out: the consumer is left told they are off', async () => {
  const warehouse = (await api.folder('Warehouse')).Key;
  let interval = 50;
  let answer: (() => void) | undefined;
  const host: PollHost = {
    source: () => client,
    intervalMs: () => interval,
    focused: () => true,
    connectionIds: () => ['env-sandbox'],
    label: () => 'Sandbox',
    // Slow once the first poll has run: the tell of the next wake waits here.
    signedIn: () => (answer === undefined && reads.length ? new Promise<boolean>((r) => (answer = () => r(true))) : Promise.resolve(true)),
    isSaving: () => false,
    failed: () => undefined,
    recovered: () => undefined,
    error: (text) => assert.fail(text),
    state: () => undefined,
  };
  const feed = new LiveFeed(host, () => Promise.resolve(host));
  const reads: LiveRead[] = [];
  feed.onDidRead((r) => reads.push(r));
  const reasons: Array<string | undefined> = [];
  const held = feed.watch({
    visible: () => true,
    watched: () => ({ groups: [{ kind: scanners, folderKey: warehouse, pageSize: 100, pages: 1, all: false }], objects: [] }),
    following: (reason) => reasons.push(reason),
  });
  try {
    await until(() => reads.length >= 1, 'a first poll');
    feed.wake(); // a tab changed: the consumers are told again, after the sign-in is checked
    await until(() => answer !== undefined, 'the sign-in checked');
    interval = 0;
    feed.wake();
    assert.equal(reasons[reasons.length - 1], 'live updates are off (oms.live.interval is 0)');
    answer!();
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(reasons[reasons.length - 1], 'live updates are off (oms.live.interval is 0)', `the consumer heard: ${JSON.stringify(reasons)}`);
  } finally {
    held.dispose();
    feed.dispose();
  }
});
