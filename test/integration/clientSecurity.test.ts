/** The client's promises about what others on the machine can read: the diagnostic log is the user's only. */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { envConnectionId, services, waitFor } from './helpers';

suite('client security', () => {
  test("the extension's log folder is 0700 (no other user can read the log in it), and the log holds no token", async () => {
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

  test('a link that would leave its connection is refused with a message, before anything is sent', async () => {
    const s = await services();
    const hrefs = ['/..//evil.example/x', '/%2e%2e/api', '//evil.example/api', 'https://evil.example/api', '/\\evil.example\\api', '/api/f/x/%2E%2E/y'];
    for (const href of hrefs) await vscode.commands.executeCommand('oms.followLink', { connectionId: envConnectionId, href });
    // Failures are reported to the user (a message, and the log): read them from the log.
    const log = () =>
      fs
        .readdirSync(s.logUri.fsPath)
        .filter((f) => f.endsWith('.log'))
        .map((f) => fs.readFileSync(path.join(s.logUri.fsPath, f), 'utf8'))
        .join('\n');
    await waitFor('the refusals in the log', () =>
      hrefs.every((h) => log().includes(`The link ${JSON.stringify(h)} would leave this connection, so it was not followed`)),
    );
    assert.ok(!/\] GET \S*evil/.test(log()) && !/\] GET \/(\.\.|%2e)/i.test(log()), 'nothing was sent');
  });
});
