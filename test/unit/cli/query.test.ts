/**
 * `oms query`, built (dist/oms.cjs) and run as a child process against a real sandbox: the service query, the same
 * query over a pulled folder (no token) and a filter written by hand over REST agree; exit 3 with nothing matched,
 * 1 with an invalid query and its column; CSV cells a spreadsheet would run are made inert.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { BaseInfo, InputScannerInfo } from '../../../src/model/types';
import { Api, start } from '../sandbox/harness';
import { allOutput, buildOms, oms, OmsRun } from './oms';

const token = 'cli-query-token-9d2e41b7c3';
let api: Api;
let root: string;
const env = () => ({ OMS_TOKEN: token });
const activeAtOne = 'InputScannerReportingPriorities[?Priority == `1` && StatusCode == `1`]';

before(async () => {
  buildOms();
  api = await start({ seed: 'demo', token });
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'oms-query-'));
});
after(async () => {
  await api.sb.close();
  await fs.rm(root, { recursive: true, force: true });
});

const ok = (run: OmsRun, code = 0) => assert.equal(run.code, code, `exit ${run.code}\nstdout: ${run.out}\nstderr: ${run.err}`);

/** Every scanner of the instance, folder by folder, read by hand over REST. */
async function scannersOverRest(): Promise<InputScannerInfo[]> {
  const out: InputScannerInfo[] = [];
  const walk = async (folderKey: string) => {
    out.push(...((await api.listAll(folderKey, 'inputscanners')) as InputScannerInfo[]));
    for (const f of await api.listAll(folderKey, 'folders')) await walk(f.Key as string);
  };
  await walk(api.sb.instanceKey);
  return out;
}

async function changeScanner(s: InputScannerInfo, change: (o: InputScannerInfo) => void): Promise<void> {
  const at = `/api/f/${s.InFolderKey}/inputscanners/${s.Key}`;
  const live = (await api.get(at)).body as InputScannerInfo;
  change(live);
  assert.equal((await api.put(at, live)).status < 300, true);
}

const keysOf = (json: string) => (JSON.parse(json) as BaseInfo[]).map((o) => o.Key).sort();

test('the service query, the pulled-folder query (no token) and a filter by hand over REST find the same scanners', async () => {
  const all = await scannersOverRest();
  for (const s of [all[0], all[3]]) await changeScanner(s, (o) => Object.assign(o.InputScannerReportingPriorities[6], { Priority: 1, StatusCode: 1 }));
  const byHand = (await scannersOverRest())
    .filter((s) => s.InputScannerReportingPriorities.some((r) => r.Priority === 1 && r.StatusCode === 1))
    .map((s) => s.Key)
    .sort();
  assert.equal(byHand.length, 2);

  const live = await oms(
    ['query', activeAtOne, '--url', api.sb.url, '--folder', api.sb.instanceKey, '--subfolders', '--kinds', 'inputScanner', '--format', 'json'],
    { env: env() },
  );
  ok(live);
  assert.deepEqual(keysOf(live.out), byHand);
  assert.match(live.err, new RegExp(`Matched 2 of ${all.length} objects`));
  // As a CI job gives the service: in OMS_URL, as plan and apply take it.
  const inCi = await oms(['query', activeAtOne, '--folder', api.sb.instanceKey, '--subfolders', '--kinds', 'inputScanner', '--format', 'json'], {
    env: { ...env(), OMS_URL: api.sb.url },
  });
  ok(inCi);
  assert.deepEqual(keysOf(inCi.out), byHand);

  ok(await oms(['pull', root, '--url', api.sb.url, '--folder', api.sb.instanceKey, '--subfolders', '--kinds', 'inputScanner'], { env: env() }));
  const files = await oms(['query', activeAtOne, root, '--format', 'json']);
  ok(files);
  assert.deepEqual(keysOf(files.out), byHand);

  const table = await oms(['query', activeAtOne, root]);
  ok(table);
  const lines = table.out.trimEnd().split('\n');
  assert.match(lines[0], /^Name\s+Kind\s+Key\s+InFolderKey\s+InputScannerReportingPriorities$/);
  assert.equal(lines.length, 3);
  assert.ok(
    allOutput.every((o) => !o.includes(token)),
    'the token shows in no output',
  );
});

test('nothing matched: exit 3 and no rows; an invalid query: exit 1 with its column and a caret under it', async () => {
  const none = await oms(
    ['query', "CommonName == 'No such scanner'", '--url', api.sb.url, '--folder', api.sb.instanceKey, '--subfolders', '--kinds', 'inputScanner'],
    { env: env() },
  );
  ok(none, 3);
  assert.equal(none.out, '');
  assert.match(none.err, /Matched 0 of \d+ objects/);

  const bad = await oms(['query', 'InputScannerReportingPriorities[?Priority == `1`', '--url', api.sb.url, '--folder', api.sb.instanceKey], { env: env() });
  ok(bad, 1);
  assert.match(bad.err, /Invalid query at column 49: The query is not valid: expected '\]', got: the end/);
  assert.match(bad.err, /\n {2}InputScannerReportingPriorities\[\?Priority == `1`\n {50}\^/);

  const misspelt = await oms(['query', 'InputScannerReportingPriorities[?Priorty == `1`]', root]);
  ok(misspelt, 3);
  assert.match(misspelt.err, /Warning at column 34: Priorty is not a field of InputScannerReportingPriorities in its schema; nearest: Priority/);
});

test('CSV: a name a spreadsheet would run as a formula is prefixed with a quote; numbers stay numbers', async () => {
  const [first] = await scannersOverRest();
  await changeScanner(first, (o) => {
    o.CommonName = '=HYPERLINK("http://example.com","x")';
  });
  const run = await oms(
    [
      'query',
      "starts_with(CommonName, '=')",
      '--url',
      api.sb.url,
      '--folder',
      api.sb.instanceKey,
      '--subfolders',
      '--kinds',
      'inputScanner',
      '--format',
      'csv',
      '--columns',
      'InputScannerReportingPriorities[0].MinResistanceCode',
    ],
    { env: env() },
  );
  ok(run);
  const [header, row] = run.out.split('\r\n');
  assert.equal(header, 'Name,Kind,Key,InFolderKey,InputScannerReportingPriorities[0].MinResistanceCode');
  assert.ok(row.startsWith(`"'=HYPERLINK(""http://example.com"",""x"")",Input scanner,${first.Key},`), row);
  assert.ok(row.endsWith(',-2'), 'a negative number is not prefixed');
});

test('the table format writes a name holding an ESC sequence as visible text: the terminal is not repainted', async () => {
  const [first] = await scannersOverRest();
  await changeScanner(first, (o) => {
    o.CommonName = 'Door\u001b[2J\u001b[31m red';
  });
  const run = await oms(
    ['query', "contains(CommonName, 'red')", '--url', api.sb.url, '--folder', api.sb.instanceKey, '--subfolders', '--kinds', 'inputScanner'],
    { env: env() },
  );
  ok(run);
  assert.ok(!run.out.includes('\u001b'), run.out);
  assert.match(run.out, /Door<U\+001B>\[2J<U\+001B>\[31m red/);
});
