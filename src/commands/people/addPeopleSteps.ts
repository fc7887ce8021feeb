/**
 * The steps of Batch-Add People (src/ui/wizard.ts): the file, its encoding when it is not UTF-8, and
 * the go-ahead (send the valid rows when some are not; else the confirmation with Copy as cURL).
 * Each asks only what the command's arguments leave open; a script decides all of them.
 */
import vscode = require('vscode');
import type { PeopleFile, PersonRow } from '../../people';
import type { WizardStep } from '../../ui/wizard';
import type { FolderTarget } from '../framework/commandTargets';
import { copyCurl } from '../objects/copyAsCurl';
import { batchSize, concurrency, SendOptions } from './addPeopleSend';

/**
 * What the steps fill. `undefined`: not decided yet (a step asks); `null` or `false`: decided as
 * none (a script's arguments decide every value).
 */
export interface PeopleContext {
  uri?: vscode.Uri;
  /** The encoding a file that is not UTF-8 is read in; null: none chosen, so it is refused. */
  encoding?: string | null;
  /** With invalid rows: send the valid ones. */
  sendValid?: boolean;
  /** The user (or the script) said send. */
  confirmed?: boolean;
}

export const fileStep: WizardStep<PeopleContext> = {
  shouldPrompt: (c) => !c.uri,
  async prompt(c) {
    const picked = await vscode.window.showOpenDialog({
      title: vscode.l10n.t('Batch-Add People: file'),
      canSelectMany: false,
      openLabel: vscode.l10n.t('Read People'),
      filters: { [vscode.l10n.t('People (CSV or JSON)')]: ['csv', 'json'] },
    });
    if (!picked?.length) throw new vscode.CancellationError();
    c.uri = picked[0];
  },
};

/** A file that is not UTF-8: which encoding it was saved in, each shown with the first line it concerns. */
export function encodingStep(name: string, bytes: Uint8Array, people: typeof import('../../people')): WizardStep<PeopleContext> {
  const problem = people.notUtf8(bytes);
  return {
    shouldPrompt: (c) => c.encoding === undefined && !!problem,
    async prompt(c, ask) {
      const line = problem!.line;
      const items = people.otherEncodings.map((e) => ({
        label: vscode.l10n.t(e.label),
        id: e.id,
        detail: lineAt(new TextDecoder(e.id).decode(bytes), line)?.slice(0, 120),
      }));
      c.encoding = (
        await ask.pick({
          items,
          active: items.find((i) => i.id === c.encoding),
          placeholder: vscode.l10n.t('{0} is not UTF-8 (line {1}): choose the encoding it was saved in, as its line reads in each', name, line),
        })
      ).id;
    },
  };
}

/** With invalid rows: send the valid ones, or stop. Stopping writes nothing, so only sending promises a file. */
export function invalidRowsStep(
  name: string,
  file: PeopleFile,
  invalid: PersonRow[],
  valid: number,
  describe: (rows: PersonRow[], max: number) => string,
): WizardStep<PeopleContext> {
  return {
    shouldPrompt: (c) => invalid.length > 0 && c.sendValid === undefined,
    async prompt(c) {
      const go = vscode.l10n.t('Send the {0} Valid', valid);
      const after =
        valid > 0
          ? vscode.l10n.t(
              'If you send the valid rows, the invalid ones are written with any failed batches to a .people.json file next to {0}, to fix and send again. Every problem is in the log.',
              name,
            )
          : vscode.l10n.t('No row can be sent: fix them in {0} and add it again. Every problem is in the log.', name);
      const detail = [describe(invalid, 12), ...file.notes].join('\n') + `\n\n${after}`;
      const choice = await vscode.window.showWarningMessage(
        invalid.length > 1 ? vscode.l10n.t('{0} rows of {1} are not valid.', invalid.length, name) : vscode.l10n.t('1 row of {0} is not valid.', name),
        { modal: true, detail },
        ...(valid > 0 ? [go] : []),
      );
      c.sendValid = choice === go;
      // The answer is the go-ahead or the stop: no second question ("Add 0 people?" after a stop).
      c.confirmed = c.sendValid;
    },
  };
}

/** Add N people from the file to the folder? (Copy as cURL puts the batches on the clipboard and asks again.) */
export function confirmStep(
  name: string,
  file: PeopleFile,
  valid: PersonRow[],
  where: FolderTarget,
  folderLabel: string,
  args?: SendOptions,
): WizardStep<PeopleContext> {
  return {
    shouldPrompt: (c) => c.confirmed === undefined,
    async prompt(c) {
      const add = vscode.l10n.t('Add {0}', valid.length);
      const curl = vscode.l10n.t('Copy as cURL');
      let choice: string | undefined;
      do {
        choice = await vscode.window.showInformationMessage(
          valid.length === 1
            ? vscode.l10n.t('Add 1 person from {0} to {1}?', name, folderLabel)
            : vscode.l10n.t('Add {0} people from {1} to {2}?', valid.length, name, folderLabel),
          {
            modal: true,
            detail: `${file.notes.join('\n')}\n${vscode.l10n.t('Sent in batches of {0}, {1} at a time.', batchSize(args), concurrency(args))}`.trim(),
          },
          add,
          curl,
        );
        // One command per batch, exactly as they would be sent.
        if (choice === curl) {
          const people = valid.map((r) => r.person);
          await copyCurl(
            where.connection,
            (client) => client.addPeople(where.folderKey, people, { batchSize: batchSize(args), concurrency: 1 }),
            vscode.l10n.t('the batches to {0}', folderLabel),
          );
        }
      } while (choice === curl);
      c.confirmed = choice === add;
    },
  };
}

/** Line `n` (from 1) of a text, whatever its line ends. */
function lineAt(text: string, n: number): string | undefined {
  return text.split(/\r\n|\n|\r/)[n - 1];
}
