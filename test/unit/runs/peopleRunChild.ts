/**
 * A batch add in a process of its own, for the test that kills it mid-way (peopleRun.test.ts): the
 * people of OMS_PEOPLE (JSON) sent to OMS_FOLDER through the run core, one batch at a time, journalled
 * in OMS_DIR; prints the run id, then each outcome as it ends.
 */
import { createHttp } from '../../../src/api/http';
import { OmsClient } from '../../../src/api/client';
import { RunJournal } from '../../../src/changes/runJournal';
import type { Connection } from '../../../src/connection/connection';
import { sendPeopleRun, type PersonToAdd } from '../../../src/runs/core/peopleRun';

const env = (name: string) => process.env[name] ?? '';
const client = new OmsClient(createHttp({ baseUrl: env('OMS_URL'), token: () => env('OMS_TOKEN') }));
const connection = {
  id: 'c1',
  info: { id: 'c1', label: 'Sandbox', baseUrl: env('OMS_URL') },
  client,
  approveWrites: (what: string) => Promise.resolve({ what }),
};
const journal = new RunJournal(env('OMS_DIR'));
const people = JSON.parse(env('OMS_PEOPLE')) as PersonToAdd[];
void (async () => {
  const runs = journal.begin.bind(journal);
  // The run id as soon as the journal has it (the core begins the journal before the first batch).
  journal.begin = async (header) => {
    const writer = await runs(header);
    process.stdout.write(`run ${writer.header.runId}\n`);
    return writer;
  };
  await sendPeopleRun(
    {
      view: {
        progress: (_title, work) => work(() => undefined, new AbortController().signal),
        confirm: () => Promise.resolve(undefined),
        stopOnError: () => Promise.resolve(false),
        say: () => undefined,
        report: (r) => void process.stdout.write(`ended ${r.runId}\n`),
      },
    },
    {
      connection: connection as unknown as Connection,
      journal,
      title: 'killed',
      folderKey: env('OMS_FOLDER'),
      people,
      batchSize: 2,
      concurrency: 1,
      stopOnError: false,
      source: 'killed.csv',
    },
  );
})();
