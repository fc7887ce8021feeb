/** The client's promises about what others on the machine can read (issue 23 item 6): the diagnostic log is the user's only. */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { services } from './helpers';

suite('client security', () => {
  test('the extension\'s log folder is 0700 (no other user can read the log in it), and the log holds no token', async () => {
    const s = await services();
    const dir = s.logUri.fsPath;
    assert.strictEqual(fs.statSync(dir).mode & 0o777, 0o700, dir);
    const logs = fs.readdirSync(dir).filter((f) => f.endsWith('.log'));
    assert.ok(logs.length > 0, `a log in ${dir}`);
    for (const f of logs) {
      const file = path.join(dir, f);
      const token = process.env.OMS_SANDBOX_TOKEN;
      assert.ok(token && !fs.readFileSync(file, 'utf8').includes(token), `no token in ${f}`);
    }
  });
});
