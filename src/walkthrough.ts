/**
 * Progress of the Get Started walkthrough (`contributes.walkthroughs`): steps
 * that complete on something the user did rather than on a command set a
 * context key here, which the step's `onContext:` completion event watches.
 */
import vscode = require('vscode');
import { parseObjectUri, scheme } from './fs/objectUri';

type Step = 'openedInputScanner' | 'savedPriorities' | 'searchedObjects';

export function stepDone(step: Step): void {
  void vscode.commands.executeCommand('setContext', `oms.walkthrough.${step}`, true);
}

/** Opening an input scanner's document ticks "Open an input scanner". */
export function trackWalkthrough(): vscode.Disposable {
  const opened = (doc: vscode.TextDocument) => {
    if (doc.uri.scheme === scheme && parseObjectUri(doc.uri)?.kind.id === 'inputScanner') stepDone('openedInputScanner');
  };
  vscode.workspace.textDocuments.forEach(opened);
  return vscode.workspace.onDidOpenTextDocument(opened);
}
