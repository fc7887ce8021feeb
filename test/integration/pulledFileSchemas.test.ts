/**
 * Pulled files get their kind's schema while edited (jsonValidation from the registry's `pulledFiles`): a pulled
 * scanner file opened as it is shows no problem; `"StatusCode": "two"` typed into it shows one at that value, before
 * any plan. VS Code's own JSON language server decides, as for a user.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { closeAllEditors, envConnectionId, folderWith, services, setText, waitFor } from './helpers';

suite("objects as code: pulled files get their kind's schema while edited", () => {
  let root: string;
  suiteSetup(async () => {
    await services();
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'oms-file-schema-it-'));
    const { key } = await folderWith('inputscanners');
    const report: any = await vscode.commands.executeCommand(
      'oms.pullAsFiles',
      { connectionId: envConnectionId, folderKey: key, kind: 'inputScanner' },
      { root },
    );
    assert.ok(report && !report.cancelled && report.objects > 0, 'pulled');
  });
  suiteTeardown(async () => {
    await closeAllEditors();
    fs.rmSync(root, { recursive: true, force: true });
  });

  test('a pulled scanner file has no problem as pulled; "StatusCode": "two" typed into it is one, at that value', async () => {
    const dir = path.join(
      root,
      fs.readdirSync(root).find((d) => fs.existsSync(path.join(root, d, 'inputscanners')))!,
      'inputscanners',
    );
    const uri = vscode.Uri.file(path.join(dir, fs.readdirSync(dir)[0]));
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    assert.strictEqual(doc.languageId, 'json');
    const text = doc.getText();
    const statusCode = /"StatusCode": \d+/.exec(text);
    assert.ok(statusCode, 'the file has a StatusCode');
    // Something that is a problem in every JSON file first: the diagnostics are being computed for this file.
    const problems = () => vscode.languages.getDiagnostics(uri).filter((d) => d.severity <= vscode.DiagnosticSeverity.Warning);
    await setText(doc, text.replace('"CommonName"', '"CommonName": 1, "CommonName"'));
    await waitFor('a first diagnostic (the JSON server is at work)', () => problems().length > 0 || undefined, 30_000);
    await setText(doc, text);
    await waitFor('no problem in the file as pulled', () => problems().length === 0 || undefined, 15_000).catch(() =>
      assert.fail(
        `as pulled: ${problems()
          .map((d) => d.message)
          .join('; ')}`,
      ),
    );
    await setText(doc, text.slice(0, statusCode.index) + '"StatusCode": "two"' + text.slice(statusCode.index + statusCode[0].length));
    const at = doc.positionAt(statusCode.index + '"StatusCode": '.length);
    const found = await waitFor('a problem at "two"', () => problems().find((d) => d.range.contains(at)), 15_000).catch(() =>
      assert.fail(
        `problems: ${
          problems()
            .map((d) => `${d.range.start.line}: ${d.message}`)
            .join('; ') || 'none'
        }`,
      ),
    );
    assert.ok(found);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
