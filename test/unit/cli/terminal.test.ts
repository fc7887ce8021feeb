/**
 * `oms apply` on a terminal (a pseudo-terminal from util-linux `script`): it asks, sends nothing
 * without "yes", and shows its progress lines; the same run without a terminal shows none.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Api, start } from '../sandbox/harness';
import { buildOms, hasScript, oms, omsOnTerminal } from './oms';

const token = 'terminal-test-token-51c0';
let api: Api;
let root: string;

before(async () => {
  buildOms();
  api = await start({ seed: 'demo', token });
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'oms-tty-'));
});
after(async () => {
  await api.sb.close();
  await fs.rm(root, { recursive: true, force: true });
});

/** `oms apply <root>` in a pseudo-terminal, `answer` typed once the question is shown. */
const applyOnTerminal = (answer: string) => omsOnTerminal(['apply', root], answer, { OMS_TOKEN: token });

const skip = !hasScript && 'no util-linux script';

test('on a terminal apply asks: anything but "yes" sends nothing; "yes" applies with a progress line', { skip }, async () => {
  const warehouse = (await api.folder('Warehouse')).Key;
  const pulled = await oms(['pull', root, '--url', api.sb.url, '--folder', warehouse, '--kinds', 'inputScanner'], { env: { OMS_TOKEN: token } });
  assert.equal(pulled.code, 0, pulled.err);
  const manifest = JSON.parse(await fs.readFile(path.join(root, 'oms.manifest.json'), 'utf8')) as { objects: Record<string, { path: string }> };
  const [key, { path: rel }] = Object.entries(manifest.objects)[0];
  const file = path.join(root, rel);
  await fs.writeFile(file, JSON.stringify({ ...JSON.parse(await fs.readFile(file, 'utf8')), CommonName: 'Asked first' }, null, 2) + '\n');
  const live = async () => ((await api.get(`/api/f/${warehouse}/inputscanners/${key}`)).body as { CommonName: string }).CommonName;

  const no = await applyOnTerminal('no');
  assert.equal(no.code, 1, no.out);
  assert.match(no.out, /Apply 0 to create, 1 to update, 0 to delete to .*\?/);
  assert.match(no.out, /Not applied: the answer was not "yes"\. Nothing was sent\./);
  assert.notEqual(await live(), 'Asked first');

  const yes = await applyOnTerminal('yes');
  assert.equal(yes.code, 0, yes.out);
  assert.match(yes.out, /Applied 1 of 1 object/);
  assert.equal(await live(), 'Asked first');
});
