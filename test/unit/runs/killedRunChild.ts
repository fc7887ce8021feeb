/**
 * A bulk run in a process of its own, for the test that kills it mid-way (killedRun.test.ts):
 * adds a tag to the scanners named in OMS_KEYS through the executor, journalled write-ahead as the
 * run shell does, and prints each outcome as it ends.
 */
import { createHttp } from '../../../src/api/http';
import { OmsClient } from '../../../src/api/client';
import { bulkChanges } from '../../../src/changes/bulk';
import { runChanges } from '../../../src/changes/executor';
import { RunJournal } from '../../../src/changes/runJournal';
import { kind } from '../../../src/model/kinds';

const env = (name: string) => process.env[name] ?? '';
const client = new OmsClient(createHttp({ baseUrl: env('OMS_URL'), token: () => env('OMS_TOKEN') }));
const targets = env('OMS_KEYS')
  .split(',')
  .map((key) => ({ kind: kind('inputScanner'), folderKey: env('OMS_FOLDER'), key, name: key }));
const changes = bulkChanges(targets, { type: 'addTag', tag: 'killed' });
const byId = new Map(changes.map((c) => [c.id, c]));
void (async () => {
  const writer = await new RunJournal(env('OMS_DIR')).begin({ title: 'killed', connectionId: 'c1', total: changes.length });
  process.stdout.write(`run ${writer.header.runId}\n`);
  await runChanges(client, changes, {
    stopOnError: false,
    beforeWrite: (change, body, live) => writer.intent(change, body, live),
    onResult: (r) => void writer.record(byId.get(r.id)!, r).then(() => process.stdout.write(`${r.outcome} ${r.id}\n`)),
  });
  await writer.close();
})();
