/**
 * The action commands in the real host, run with args (no prompts) against
 * the test sandbox, each checked from the outside: the sandbox's outbox, its
 * stored objects, files on disk, open editors, inlay hints.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { AddPeopleResult } from '../../src/commands/people/addPeopleReport';
import type { EditPrioritiesResult } from '../../src/commands/scanners/editScannerPriorities';
import type { InviteResult } from '../../src/commands/objects/inviteUser';
import type { PushResult } from '../../src/commands/push/sendPushNotification';
import { kind } from '../../src/model/kinds';
import { newObject } from '../../src/model/templates';
import { closeAllEditors, envConnectionId as connectionId, rest, services } from './helpers';

const run = <T>(id: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(id, ...args);

let folderKey: string;
let siteKey: string;
let scannerKey: string;
let tmp: string;
const stamp = Date.now().toString(36);

async function outbox(): Promise<Array<{ kind: string; folderKey: string; objectKey?: string; body: any }>> {
  return (await rest('GET', '/sandbox/outbox')).body;
}

async function fault(p: string, status: number, count = 1): Promise<void> {
  assert.strictEqual((await rest('POST', '/sandbox/faults', { path: p, status, count })).status, 201);
}

async function peopleTagged(tag: string): Promise<any[]> {
  const all: any[] = [];
  for (let page = 0; ; page++) {
    const items = (await rest('GET', `/api/f/${folderKey}/people?page=${page}&pageSize=1000`)).body as any[];
    all.push(...items);
    if (items.length < 1000) break;
  }
  return all.filter((p) => p.Tags?.includes(tag));
}

suite('commands', () => {
  suiteSetup(async () => {
    await services(); // activates the extension
    const root = (await rest('GET', '/api')).body.Key as string;
    const folders = (await rest('GET', `/api/f/${root}/folders`)).body as any[];
    // Work in a folder of our own objects, away from the root the objects suite uses.
    folderKey = (folders.find((f) => f.CommonName === 'Warehouse') ?? folders[0]).Key;
    const site = await rest('POST', `/api/f/${folderKey}/engagesites`, newObject(kind('engageSite'), `IT invite site ${stamp}`));
    const scanner = await rest('POST', `/api/f/${folderKey}/inputscanners`, newObject(kind('inputScanner'), `IT scanner ${stamp}`));
    assert.strictEqual(site.status, 201);
    assert.strictEqual(scanner.status, 201);
    siteKey = site.body.Key;
    scannerKey = scanner.body.Key;
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'oms-commands-'));
  });
  teardown(async () => {
    await rest('DELETE', '/sandbox/faults');
    await closeAllEditors();
  });
  suiteTeardown(() => fs.rmSync(tmp, { recursive: true, force: true }));

  // ---------------------------------------------------------------- invite
  test('invite: the address goes out as a JSON string and lands in the outbox', async () => {
    const email = `it-${stamp}@example.com`;
    const r = await run<InviteResult>('oms.inviteUser', { connectionId, folderKey, siteKey, email });
    assert.deepStrictEqual(r, { ok: true, email, siteKey });
    const sent = (await outbox()).filter((e) => e.kind === 'invite' && e.objectKey === siteKey);
    assert.deepStrictEqual(
      sent.map((e) => e.body),
      [email],
    );
    assert.strictEqual(sent[0].folderKey, folderKey);
  });

  test('invite: an address that is not one is refused before anything is sent', async () => {
    const before = (await outbox()).length;
    for (const email of ['not-an-address', 'a@b', 'two@@example.com', '   ']) {
      const r = await run<InviteResult>('oms.inviteUser', { connectionId, folderKey, siteKey, email });
      assert.ok(r && !r.ok && r.sent === false, `${email} refused locally: ${JSON.stringify(r)}`);
    }
    assert.strictEqual((await outbox()).length, before);
  });

  test("invite: a server error comes back with the server's reason, nothing recorded", async () => {
    const before = (await outbox()).length;
    await fault(`/api/f/${folderKey}/engagesites/${siteKey}/invite`, 500);
    const r = await run<InviteResult>('oms.inviteUser', { connectionId, folderKey, siteKey, email: `fail-${stamp}@example.com` });
    assert.ok(r && !r.ok);
    assert.strictEqual(r.status, 500);
    assert.match(r.reason, /Injected fault: status 500/);
    assert.strictEqual((await outbox()).length, before);
    // A missing site is the server's 404, with its message.
    const missing = await run<InviteResult>('oms.inviteUser', { connectionId, folderKey, siteKey: 'ffffffffffffffffffffffff', email: 'x@example.com' });
    assert.ok(missing && !missing.ok && missing.status === 404, JSON.stringify(missing));
  });

  // ---------------------------------------------------------------- push
  test('push: an e-mail from args is sent with its type number, subject and image', async () => {
    const person = (await rest('GET', `/api/f/${folderKey}/people?pageSize=2`)).body[0];
    const message = `IT drill ${stamp}`;
    const r = await run<PushResult>('oms.sendPushNotification', {
      connectionId,
      folderKey,
      type: 'Email',
      message,
      recipientKeys: [person.Key],
      subject: 'Fire drill',
      attachedImage: { LinkedObjectKey: siteKey, CommonName: 'Evacuation map', Relation: 'Image' },
    });
    assert.ok(r?.ok, JSON.stringify(r));
    const sent = (await outbox()).filter((e) => e.kind === 'push' && e.body.Message === message);
    assert.strictEqual(sent.length, 1);
    const body = sent[0].body;
    assert.strictEqual(body.PushNotificationType, 0);
    assert.match(body.$type, /\.PushNotificationRequest, /);
    assert.deepStrictEqual(body.RecipientKeys, [person.Key]);
    assert.strictEqual(body.EventRecipientKeys, null);
    assert.strictEqual(body.Subject, 'Fire drill');
    assert.strictEqual(body.AttachedImage.LinkedObjectKey, siteKey);
    assert.strictEqual(sent[0].folderKey, folderKey);
  });

  test('push: the delivery number follows the setting oms.pushNotificationTypes', async () => {
    const config = vscode.workspace.getConfiguration('oms');
    await config.update('pushNotificationTypes', { Email: 7, Sms: 8 }, vscode.ConfigurationTarget.Global);
    try {
      const message = `IT sms ${stamp}`;
      const r = await run<PushResult>('oms.sendPushNotification', {
        connectionId,
        folderKey,
        type: 'Sms',
        messageTemplateKey: 'tpl-1',
        message,
        subject: 'dropped for SMS',
      });
      assert.ok(r?.ok, JSON.stringify(r));
      const body = (await outbox()).find((e) => e.kind === 'push' && e.body.Message === message)!.body;
      assert.strictEqual(body.PushNotificationType, 8);
      assert.strictEqual(body.MessageTemplateKey, 'tpl-1');
      assert.strictEqual(body.Subject, null);
    } finally {
      await config.update('pushNotificationTypes', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test("push: an invalid request is refused before sending, with the schema's errors", async () => {
    const before = (await outbox()).length;
    const noContent = await run<PushResult>('oms.sendPushNotification', { connectionId, folderKey, type: 'Email', subject: 'no message' });
    assert.ok(noContent && !noContent.ok && noContent.sent === false);
    assert.match(noContent.errors![0].message, /Message or MessageTemplateKey/);
    const badType = await run<PushResult>('oms.sendPushNotification', { connectionId, folderKey, type: 'Fax', message: 'x' });
    assert.ok(badType && !badType.ok && badType.sent === false);
    assert.match(badType.reason, /Unknown push notification type "Fax"/);
    const raw = await run<PushResult>('oms.sendPushNotification', {
      connectionId,
      folderKey,
      request: {
        $type: 'Feenics.Keep.WebApi.Model.PushNotificationRequest, Feenics.Keep.WebApi.Model',
        PushNotificationType: 0,
        Message: 'x',
        RecipientKeys: 'not-a-list',
      },
    });
    assert.ok(raw && !raw.ok && raw.sent === false);
    assert.deepStrictEqual(
      raw.errors!.map((e) => e.pointer),
      ['/RecipientKeys'],
    );
    assert.strictEqual((await outbox()).length, before);
  });

  test('push from a JSON file: a valid file is sent; an invalid one is refused with errors by pointer', async () => {
    const good = path.join(tmp, 'drill.push.json');
    const message = `IT from file ${stamp}`;
    fs.writeFileSync(
      good,
      JSON.stringify(
        {
          $type: 'Feenics.Keep.WebApi.Model.PushNotificationRequest, Feenics.Keep.WebApi.Model',
          PushNotificationType: 1,
          Message: message,
          MessageTemplateKey: null,
          RecipientKeys: null,
          EventRecipientKeys: null,
          Subject: null,
        },
        null,
        2,
      ),
    );
    const ok = await run<PushResult>('oms.sendPushNotificationFromFile', { uri: vscode.Uri.file(good), connectionId, folderKey });
    assert.ok(ok?.ok, JSON.stringify(ok));
    assert.strictEqual((await outbox()).filter((e) => e.kind === 'push' && e.body.Message === message).length, 1);

    const before = (await outbox()).length;
    const bad = path.join(tmp, 'broken.push.json');
    fs.writeFileSync(
      bad,
      JSON.stringify({ $type: 'Feenics.Keep.WebApi.Model.PushNotificationRequest, Feenics.Keep.WebApi.Model', PushNotificationType: 0, Subject: 5 }, null, 2),
    );
    const r = await run<PushResult>('oms.sendPushNotificationFromFile', { uri: bad, connectionId, folderKey });
    assert.ok(r && !r.ok && r.sent === false);
    const pointers = r.errors!.map((e) => e.pointer).sort();
    assert.deepStrictEqual(pointers, ['', '/Subject']);
    fs.writeFileSync(bad, '{ "PushNotificationType": ');
    const notJson = await run<PushResult>('oms.sendPushNotificationFromFile', { uri: bad, connectionId, folderKey });
    assert.ok(notJson && !notJson.ok && /not valid JSON/.test(notJson.reason));
    assert.strictEqual((await outbox()).length, before);
  });

  // ---------------------------------------------------------------- batch add
  test('batch add: invalid rows by line, a refused batch in the failed file, which is sent when fed back', async () => {
    const tag = `it-batch-${stamp}`;
    const header = 'First Name,Last Name,E-mail,Phone,Street,City,Province,Country,Postal Code,Tags';
    const lines = [header];
    for (let i = 1; i <= 250; i++) {
      const email = i === 39 ? 'broken-at-example.com' : `p${i}.${stamp}@example.com`;
      const given = i === 119 ? '' : `Given${i}`;
      const surname = i === 119 ? '' : `"Sur, ${i}"`;
      lines.push(`${given},${surname},${email},555-01${String(i).padStart(3, '0')},${i} Main St,Ottawa,ON,Canada,K1P 1A1,${tag};batch`);
    }
    const csv = path.join(tmp, `people-${stamp}.csv`);
    fs.writeFileSync(csv, '\uFEFF' + lines.join('\r\n') + '\r\n');
    // The first batch request the server sees is refused with a 500, which may follow the work: that
    // batch is reported, not resent. The next gets a 429, a refusal before any work: it is sent again.
    await fault(`/api/f/${folderKey}/people/complex`, 500, 1);
    await fault(`/api/f/${folderKey}/people/complex`, 429, 1);

    const r = await run<AddPeopleResult>('oms.addPeople', {
      uri: vscode.Uri.file(csv),
      connectionId,
      folderKey,
      onInvalid: 'send',
      batchSize: 50,
      concurrency: 4,
    });
    assert.ok(r, 'a result');
    assert.strictEqual(r.rows, 250);
    assert.deepStrictEqual(
      r.invalid.map((x) => x.line),
      [40, 120],
      'rows 39 and 119 sit on lines 40 and 120',
    );
    assert.match(r.invalid[0].errors.join(), /e-mail "broken-at-example.com"/);
    assert.match(r.invalid[1].errors.join(), /has no name/);
    assert.strictEqual(r.failed.length, 1, `only the batch refused with 500: ${JSON.stringify(r.failed)}`);
    const failedSize = r.failed[0].end - r.failed[0].start;
    assert.match(r.failed[0].reason, /Injected fault: status 500/);
    assert.strictEqual(r.added, 248 - failedSize);
    assert.strictEqual(r.sent, 248 - failedSize);
    assert.strictEqual(r.ok, false);
    assert.strictEqual((await peopleTagged(tag)).length, r.added);

    // The failed file: next to the input, the refused batch plus the two invalid rows, as PersonInfo.
    assert.ok(r.failedFile && fs.existsSync(r.failedFile), `failed file ${r.failedFile}`);
    assert.strictEqual(path.dirname(r.failedFile), tmp);
    assert.match(path.basename(r.failedFile), new RegExp(`^people-${stamp}\\.failed-\\d{8}T\\d{6}Z\\.people\\.json$`));
    const failed = JSON.parse(fs.readFileSync(r.failedFile, 'utf8')) as any[];
    assert.strictEqual(failed.length, failedSize + 2);

    // Fix the two invalid rows in the file, then feed it back to the same command.
    for (const p of failed) {
      if (!p.CommonName) Object.assign(p, { GivenName: 'Given119', Surname: 'Fixed', CommonName: 'Given119 Fixed' });
      for (const a of p.Addresses) if (a.MailTo === 'broken-at-example.com') a.MailTo = `p39.${stamp}@example.com`;
    }
    fs.writeFileSync(r.failedFile, JSON.stringify(failed, null, 2));
    const again = await run<AddPeopleResult>('oms.addPeople', { uri: r.failedFile, connectionId, folderKey, batchSize: 50 });
    assert.ok(again?.ok, JSON.stringify(again));
    assert.strictEqual(again.added, failedSize + 2);
    assert.strictEqual(again.failedFile, undefined);

    // Everyone once: 250 people with the tag, no name twice.
    const stored = await peopleTagged(tag);
    assert.strictEqual(stored.length, 250);
    assert.strictEqual(new Set(stored.map((p) => p.Addresses.find((a: any) => a.MailTo)?.MailTo)).size, 250);
  });

  test('batch add: 10,000 people from CSV complete against the sandbox, each once', async function () {
    this.timeout(180_000);
    // Before the production test: its connection updates refresh the tree in the background, which would
    // share the sandbox with this batch.
    const tag = `it-10k-${stamp}`;
    const lines = ['GivenName,Surname,Email,Phone,City,Tags'];
    for (let i = 0; i < 10_000; i++) lines.push(`G${i},S${i},p${i}.${stamp}@big.example.com,555-${String(i).padStart(5, '0')},Ottawa,${tag}`);
    const csv = path.join(tmp, 'ten-thousand.csv');
    fs.writeFileSync(csv, lines.join('\n') + '\n');
    const started = Date.now();
    const r = await run<AddPeopleResult>('oms.addPeople', { uri: csv, connectionId, folderKey });
    const seconds = (Date.now() - started) / 1000;
    assert.ok(r?.ok, JSON.stringify(r?.failed));
    assert.strictEqual(r.added, 10_000);
    assert.strictEqual((await peopleTagged(tag)).length, 10_000);
    // A number for the closing note, not an assertion on speed.
    const dir = process.env.OMS_TEST_DIAGNOSTICS;
    if (dir) fs.writeFileSync(path.join(dir, 'batch-10000.txt'), `${seconds.toFixed(2)} s, ${(10_000 / seconds).toFixed(0)} people/s\n`);
  });

  test("Pull as Files of the 10,000+ people above: a file each, named in the manifest, written by the packaged extension's pull threads", async function () {
    this.timeout(180_000);
    const client = (await services()).connections.get(connectionId)!.client;
    let started = Date.now();
    const listed = await client.listAll(kind('person'), folderKey);
    const listMs = Date.now() - started;
    /** One pull into a new folder, timed from the command's start to its report. */
    const pullOnce = async () => {
      const root = fs.mkdtempSync(path.join(tmp, 'pull-people-'));
      started = Date.now();
      const report = await run<{ objects: number; written: number; cancelled: boolean }>(
        'oms.pullAsFiles',
        { connectionId, folderKey, kind: 'person' },
        { root },
      );
      return { root, report, ms: Date.now() - started };
    };
    const first = await pullOnce();
    const second = await pullOnce(); // the threads have pulled before: their code is compiled
    assert.ok(listed.length >= 10_000, `${listed.length} people`);
    for (const { root, report } of [first, second]) {
      assert.strictEqual(report.cancelled, false);
      assert.strictEqual(report.objects, listed.length);
      assert.strictEqual(report.written, listed.length);
      const manifest = JSON.parse(fs.readFileSync(path.join(root, 'oms.manifest.json'), 'utf8')) as { objects: Record<string, { path: string }> };
      const entries = Object.entries(manifest.objects);
      assert.strictEqual(entries.length, listed.length);
      for (const [key, entry] of entries.filter((_, i) => i % 500 === 0)) {
        const file = JSON.parse(fs.readFileSync(path.join(root, entry.path), 'utf8'));
        assert.strictEqual(file.Key, key, entry.path);
      }
      assert.strictEqual(fs.readdirSync(path.join(root, path.dirname(entries[0][1].path))).length, listed.length, 'a file per person, nothing else');
    }
    // Numbers for the closing note, not assertions on speed.
    const dir = process.env.OMS_TEST_DIAGNOSTICS;
    const ratio = (ms: number) => `${(ms / listMs).toFixed(2)}x`;
    if (dir)
      fs.writeFileSync(
        path.join(dir, 'pull-people.txt'),
        `pull ${listed.length} people (the command, from its start to its report): first ${first.ms} ms = ${ratio(first.ms)}, ` +
          `again into a new folder ${second.ms} ms = ${ratio(second.ms)} · listing them with the client: ${listMs} ms\n`,
      );
  });

  test('batch add on a production connection asks once for all its batches; No sends nothing', async () => {
    const tag = `it-prod-${stamp}`;
    const csv = path.join(tmp, `production-${stamp}.csv`);
    fs.writeFileSync(
      csv,
      ['GivenName,Surname,Email,Tags', ...[1, 2, 3, 4, 5].map((i) => `G${i},S${i},p${i}.${stamp}@prod.example.com,${tag}`)].join('\n') + '\n',
    );
    const questions: string[] = [];
    const s = await services();
    await s.connections.update(connectionId, { production: true });
    try {
      s.answerProductionWrites((detail: string) => {
        questions.push(detail);
        return false;
      });
      assert.strictEqual(await run('oms.addPeople', { uri: csv, connectionId, folderKey, batchSize: 1 }), undefined, 'cancelled');
      assert.strictEqual((await peopleTagged(tag)).length, 0, 'nothing sent after No');
      s.answerProductionWrites((detail: string) => {
        questions.push(detail);
        return true;
      });
      const r = await run<AddPeopleResult>('oms.addPeople', { uri: csv, connectionId, folderKey, batchSize: 1, concurrency: 4 });
      assert.strictEqual(r.added, 5);
      assert.strictEqual((await peopleTagged(tag)).length, 5);
      assert.strictEqual(questions.length, 2, `one question per batch add, not per batch: ${questions.join(' | ')}`);
      assert.match(questions[1], /5 people .* in 5 batch requests/);
    } finally {
      s.answerProductionWrites(undefined);
      await s.connections.update(connectionId, { production: false });
    }
  });

  test('a changed answer size cap applies to the next request (settings are read again after a change)', async () => {
    // After the 10,000 above, a page of 1,000 people is larger than 1 MB.
    const client = (await services()).connections.get(connectionId)!.client;
    assert.strictEqual((await client.list(kind('person'), folderKey, 0, 1000)).items.length, 1000);
    const config = vscode.workspace.getConfiguration('oms');
    await config.update('maxResponseMegabytes', 1, vscode.ConfigurationTarget.Global);
    try {
      await assert.rejects(client.list(kind('person'), folderKey, 0, 1000), /larger than 1 MB \(setting oms\.maxResponseMegabytes\)/);
    } finally {
      await config.update('maxResponseMegabytes', undefined, vscode.ConfigurationTarget.Global);
    }
    assert.strictEqual((await client.list(kind('person'), folderKey, 0, 1000)).items.length, 1000);
  });

  test('batch add: a file that is not there is named in a clear error and nothing is sent', async () => {
    const missing = path.join(tmp, 'no-such-people.csv');
    const r = await run<AddPeopleResult>('oms.addPeople', { uri: missing, connectionId, folderKey });
    assert.ok(r && r.stopped && !r.ok && r.sent === 0, JSON.stringify(r));
    assert.match(r.reason ?? '', /^no-such-people\.csv: .*no such file/i);
  });

  test('batch add: with invalid rows and no go-ahead nothing is sent', async () => {
    const tag = `it-stop-${stamp}`;
    const csv = path.join(tmp, 'stop.csv');
    fs.writeFileSync(csv, `Given Name,Surname,Email,Tags\nA,B,a@example.com,${tag}\nC,D,bad,${tag}\n`);
    const r = await run<AddPeopleResult>('oms.addPeople', { uri: csv, connectionId, folderKey });
    assert.ok(r && r.stopped && !r.ok);
    assert.deepStrictEqual(
      r.invalid.map((x) => x.line),
      [3],
    );
    assert.strictEqual(r.failedFile, undefined);
    assert.strictEqual((await peopleTagged(tag)).length, 0);
  });

  test('batch add: cancelled before the first batch, nobody is sent and everybody is in the failed file', async () => {
    const tag = `it-cancel-${stamp}`;
    const file = path.join(tmp, 'cancel.people.json');
    const people = Array.from({ length: 30 }, (_, i) => ({ ...newObject(kind('person'), `Cancel ${i}`), GivenName: `Cancel${i}`, Tags: [tag] }));
    fs.writeFileSync(file, JSON.stringify(people, null, 2));
    const controller = new AbortController();
    controller.abort();
    const r = await run<AddPeopleResult>('oms.addPeople', { uri: file, connectionId, folderKey, batchSize: 10, signal: controller.signal });
    assert.ok(r, 'a result');
    assert.strictEqual(r.cancelled, true);
    assert.strictEqual(r.added, 0);
    assert.deepStrictEqual(
      r.failed.map((f) => [f.start, f.end, f.skipped]),
      [
        [0, 10, true],
        [10, 20, true],
        [20, 30, true],
      ],
    );
    assert.strictEqual(JSON.parse(fs.readFileSync(r.failedFile!, 'utf8')).length, 30);
    assert.strictEqual((await peopleTagged(tag)).length, 0);
  });

  test('batch add: Cancel while sending stops within one batch per request in flight; the rest is reported, not sent', async function () {
    this.timeout(120_000);
    const tag = `it-cancel-mid-${stamp}`;
    const csv = path.join(tmp, 'cancel-mid.csv');
    const lines = ['GivenName,Surname,Email,Tags'];
    for (let i = 0; i < 2_000; i++) lines.push(`C${i},M${i},c${i}.${stamp}@cancel.example.com,${tag}`);
    fs.writeFileSync(csv, lines.join('\n') + '\n');
    const controller = new AbortController();
    let doneAtCancel = -1;
    const r = await run<AddPeopleResult>('oms.addPeople', {
      uri: csv,
      connectionId,
      folderKey,
      batchSize: 100,
      concurrency: 4,
      signal: controller.signal,
      onProgress: (p: { doneBatches: number }) => {
        if (doneAtCancel < 0) {
          doneAtCancel = p.doneBatches;
          controller.abort();
        }
      },
    });
    assert.ok(r?.cancelled, 'cancelled');
    const sentBatches = 20 - r.failed.filter((f) => f.skipped).length;
    // After Cancel no batch starts: only the (at most 4) requests already in flight complete.
    assert.ok(sentBatches <= doneAtCancel + 4, `${sentBatches} batches sent, ${doneAtCancel} done at Cancel`);
    assert.ok(
      r.failed.some((f) => f.skipped),
      'batches left unsent',
    );
    assert.strictEqual((await peopleTagged(tag)).length, r.added, 'the sandbox holds exactly what was reported added');
    assert.strictEqual(JSON.parse(fs.readFileSync(r.failedFile!, 'utf8')).length, 2_000 - r.added, 'the rest is in the failed-items file');
  });

  test('batch add is a run: Show Run lists its people by row, Retry Failed sends only the refused batch’s people', async () => {
    const tag = `it-run-${stamp}`;
    const csv = path.join(tmp, `run-${stamp}.csv`);
    const rows = [1, 2, 3, 4, 5, 6].map((i) => `Run${i},Row${i},r${i}.${stamp}@run.example.com,${tag}`);
    fs.writeFileSync(csv, ['GivenName,Surname,Email,Tags', ...rows].join('\n') + '\n');
    // The first batch is refused before any work (400): its people are failed, the rest added.
    await fault(`/api/f/${folderKey}/people/complex`, 400, 1);
    const r = await run<AddPeopleResult>('oms.addPeople', { uri: csv, connectionId, folderKey, batchSize: 2, concurrency: 1 });
    assert.strictEqual(r.added, 4);
    assert.ok(r.runId, 'the run is journalled');
    const shown = await run<string>('oms.showRun', { runId: r.runId });
    assert.match(shown, /Add 6 people from run-.*\.csv to .*: 4 applied · 2 failed/);
    assert.match(shown, /failed\s+Run1 Row1 \(line 2\): 400: Injected fault/);
    assert.match(shown, /applied\s+Run6 Row6 \(line 7\)/);
    const retried = await run<{ results: Array<{ id: string; outcome: string }> }>('oms.retryFailedRun', { runId: r.runId, stopOnError: false });
    assert.deepStrictEqual(
      retried.results.map((x) => `${x.id} ${x.outcome}`),
      ['line 2 applied', 'line 3 applied'],
    );
    const stored = await peopleTagged(tag);
    assert.strictEqual(stored.length, 6, 'everyone once');
    assert.strictEqual(new Set(stored.map((p) => p.CommonName)).size, 6);
  });

  test('batch add: a file that is not CSV people is refused as a whole', async () => {
    const csv = path.join(tmp, 'nonames.csv');
    fs.writeFileSync(csv, 'Email,Phone\na@example.com,1\n');
    const r = await run<AddPeopleResult>('oms.addPeople', { uri: csv, connectionId, folderKey });
    assert.ok(r && r.stopped);
    assert.match(r.reason!, /no given name, surname or name column/);
  });

  // ---------------------------------------------------------------- scanner priorities
  test('scanner quick edit: saved with PUT, version up, the open document reloads', async () => {
    const uri = await run<vscode.Uri>('oms.openObject', { connectionId, folderKey, kind: 'inputScanner', key: scannerKey });
    const doc = await vscode.workspace.openTextDocument(uri);
    const before = (await rest('GET', `/api/f/${folderKey}/inputscanners/${scannerKey}`)).body;
    assert.strictEqual((await services()).objectFiles.baseOf(doc.uri)?.ConcurrencyVersion, before.ConcurrencyVersion);

    const r = await run<EditPrioritiesResult>('oms.editScannerPriorities', { connectionId, folderKey, key: scannerKey, index: 2, priority: 7, statusCode: 4 });
    assert.deepStrictEqual(r, { ok: true, changed: true });
    const after = (await rest('GET', `/api/f/${folderKey}/inputscanners/${scannerKey}`)).body;
    assert.strictEqual(after.ConcurrencyVersion, before.ConcurrencyVersion + 1);
    assert.strictEqual(after.InputScannerReportingPriorities[2].Priority, 7);
    assert.strictEqual(after.InputScannerReportingPriorities[2].StatusCode, 4);
    for (const i of [0, 1, 3, 4, 5, 6, 7]) assert.deepStrictEqual(after.InputScannerReportingPriorities[i], before.InputScannerReportingPriorities[i]);

    // The editor shows the new version without anyone reverting it.
    const deadline = Date.now() + 10_000;
    const reloaded = async () =>
      (await services()).objectFiles.baseOf(doc.uri)?.ConcurrencyVersion === after.ConcurrencyVersion &&
      JSON.parse(doc.getText()).InputScannerReportingPriorities[2].Priority === 7;
    while (!(await reloaded()) && Date.now() < deadline) await new Promise((res) => setTimeout(res, 100));
    const shown = JSON.parse(doc.getText());
    assert.strictEqual((await services()).objectFiles.baseOf(doc.uri)?.ConcurrencyVersion, after.ConcurrencyVersion, 'the open document reloaded');
    assert.strictEqual(shown.InputScannerReportingPriorities[2].Priority, 7);
    assert.strictEqual(doc.isDirty, false);

    const same = await run<EditPrioritiesResult>('oms.editScannerPriorities', { connectionId, folderKey, key: scannerKey, index: 2, priority: 7 });
    assert.deepStrictEqual(same, { ok: true, changed: false });
    assert.strictEqual((await rest('GET', `/api/f/${folderKey}/inputscanners/${scannerKey}`)).body.ConcurrencyVersion, after.ConcurrencyVersion);
  });

  test('scanner quick edit: a change on the server meanwhile is a conflict and is not overwritten', async () => {
    const seen = (await rest('GET', `/api/f/${folderKey}/inputscanners/${scannerKey}`)).body;
    const theirs = structuredClone(seen);
    theirs.InputScannerReportingPriorities[0].Priority = 5;
    assert.strictEqual((await rest('PUT', `/api/f/${folderKey}/inputscanners/${scannerKey}`, theirs)).status, 204);

    const r = await run<EditPrioritiesResult>('oms.editScannerPriorities', {
      connectionId,
      folderKey,
      key: scannerKey,
      index: 1,
      priority: 9,
      expectedVersion: seen.ConcurrencyVersion,
    });
    assert.ok(r && !r.ok && r.conflict, JSON.stringify(r));
    assert.strictEqual(r.serverVersion, seen.ConcurrencyVersion + 1);
    const now = (await rest('GET', `/api/f/${folderKey}/inputscanners/${scannerKey}`)).body;
    assert.strictEqual(now.ConcurrencyVersion, seen.ConcurrencyVersion + 1);
    assert.strictEqual(now.InputScannerReportingPriorities[0].Priority, 5);
    assert.strictEqual(now.InputScannerReportingPriorities[1].Priority, seen.InputScannerReportingPriorities[1].Priority);

    const bad = await run<EditPrioritiesResult>('oms.editScannerPriorities', { connectionId, folderKey, key: scannerKey, index: 8, priority: 1 });
    assert.ok(bad && !bad.ok && /index must be 0 to 7/.test(bad.reason));
  });

  test('scanner quick edit, interactive: pick, keep the priority, Back, pick another status, saved', async () => {
    const before = (await rest('GET', `/api/f/${folderKey}/inputscanners/${scannerKey}`)).body;
    const entry = before.InputScannerReportingPriorities[1];
    const pause = () => new Promise((res) => setTimeout(res, 700));
    const key = (id: string) => vscode.commands.executeCommand(id);
    // No index: the multi-step quick input opens; it is driven with the keyboard's commands.
    const running = run<EditPrioritiesResult>('oms.editScannerPriorities', { connectionId, folderKey, key: scannerKey });
    await pause();
    await key('workbench.action.quickOpenSelectNext'); // step 1: the second range
    await key('workbench.action.acceptSelectedQuickOpenItem');
    await pause();
    await key('workbench.action.acceptSelectedQuickOpenItem'); // step 2: the priority as it is
    await pause();
    await key('workbench.action.quickInputBack'); // step 3 -> back to step 2, its value kept
    await pause();
    await key('workbench.action.acceptSelectedQuickOpenItem');
    await pause();
    await key('workbench.action.quickOpenSelectNext'); // step 3: the status after the current one
    await key('workbench.action.acceptSelectedQuickOpenItem');
    const r = await Promise.race([running, new Promise((res) => setTimeout(() => res('timeout'), 10_000))]);
    if (r === 'timeout') await key('workbench.action.closeQuickOpen');
    assert.deepStrictEqual(r, { ok: true, changed: true });
    const after = (await rest('GET', `/api/f/${folderKey}/inputscanners/${scannerKey}`)).body;
    assert.strictEqual(after.ConcurrencyVersion, before.ConcurrencyVersion + 1);
    assert.strictEqual(after.InputScannerReportingPriorities[1].Priority, entry.Priority);
    assert.strictEqual(after.InputScannerReportingPriorities[1].StatusCode, entry.StatusCode + 1);
  });

  test('status code hints: labels beside StatusCode and NonSettlingErrorStatus, off with the setting', async () => {
    const uri = await run<vscode.Uri>('oms.openObject', { connectionId, folderKey, kind: 'inputScanner', key: scannerKey });
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const range = new vscode.Range(0, 0, doc.lineCount, 0);
    const hints = async () => (await run<vscode.InlayHint[]>('vscode.executeInlayHintProvider', uri, range)) ?? [];
    const labels = (await hints()).map((h) => ({
      line: doc.lineAt(h.position.line).text.trim(),
      label: typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join(''),
    }));
    assert.strictEqual(labels.length, 9, JSON.stringify(labels));
    assert.ok(
      labels.some((l) => l.line.startsWith('"StatusCode": 4') && l.label === '⟵ Supervisory fault, open circuit'),
      JSON.stringify(labels),
    );
    assert.ok(
      labels.some((l) => l.line.startsWith('"NonSettlingErrorStatus": 6') && l.label === '⟵ Non-settling error'),
      JSON.stringify(labels),
    );

    const config = vscode.workspace.getConfiguration('oms');
    await config.update('statusCodeHints', false, vscode.ConfigurationTarget.Global);
    try {
      assert.strictEqual((await hints()).length, 0);
    } finally {
      await config.update('statusCodeHints', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
