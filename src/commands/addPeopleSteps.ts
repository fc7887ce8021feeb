/**
 * The steps of Batch-Add People (src/ui/wizard.ts): the file, its encoding when it is not UTF-8, and
 * the go-ahead (send the valid rows when some are not; else the confirmation with Copy as cURL).
 * Each asks only what the command's arguments leave open; a script decides all of them.
 */
import * as vscode from 'vscode';
import type { PeopleFile, PersonRow } from '../people';
import type { WizardStep } from '../ui/wizard';
import type { FolderTarget } from './commandTargets';
import { copyCurl } from './copyAsCurl';
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
      title: 'Batch-Add People: file', canSelectMany: false, openLabel: 'Read People',
      filters: { 'People (CSV or JSON)': ['csv', 'json'] },
    });
    if (!picked?.length) throw new vscode.CancellationError();
    c.uri = picked[0];
  },
};

/** A file that is not UTF-8: which encoding it was saved in, each shown with the first line it concerns. */
export function encodingStep(name: string, bytes: Uint8Array, people: typeof import('../people')): WizardStep<PeopleContext> {
  const problem = people.notUtf8(bytes);
  return {
    shouldPrompt: (c) => c.encoding === undefined && !!problem,
    async prompt(c, ask) {
      const line = problem!.line;
      const items = people.otherEncodings.map((e) => ({
        label: e.label, id: e.id,
        detail: new TextDecoder(e.id).decode(bytes).split(/\r\n|\n|\r/)[line - 1]?.slice(0, 120),
      }));
      c.encoding = (await ask.pick({
        items, active: items.find((i) => i.id === c.encoding),
        placeholder: vscode.l10n.t('{0} is not UTF-8 (line {1}): choose the encoding it was saved in, as its line reads in each', name, line),
      })).id;
    },
  };
}

/** With invalid rows: send the valid ones, or stop. Stopping writes nothing, so only sending promises a file. */
export function invalidRowsStep(name: string, file: PeopleFile, invalid: PersonRow[], valid: number, describe: (rows: PersonRow[], max: number) => string): WizardStep<PeopleContext> {
  return {
    shouldPrompt: (c) => invalid.length > 0 && c.sendValid === undefined,
    async prompt(c) {
      const go = `Send the ${valid} Valid`;
      const after = valid > 0
        ? vscode.l10n.t('If you send the valid rows, the invalid ones are written with any failed batches to a .people.json file next to {0}, to fix and send again. Every problem is in the log.', name)
        : vscode.l10n.t('No row can be sent: fix them in {0} and add it again. Every problem is in the log.', name);
      const detail = [describe(invalid, 12), ...file.notes].join('\n') + `\n\n${after}`;
      const choice = await vscode.window.showWarningMessage(
        `${invalid.length} row${invalid.length > 1 ? 's' : ''} of ${name} ${invalid.length > 1 ? 'are' : 'is'} not valid.`,
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
export function confirmStep(name: string, file: PeopleFile, valid: PersonRow[], where: FolderTarget, folderLabel: string, args?: SendOptions): WizardStep<PeopleContext> {
  return {
    shouldPrompt: (c) => c.confirmed === undefined,
    async prompt(c) {
      const add = `Add ${valid.length}`;
      const curl = 'Copy as cURL';
      let choice: string | undefined;
      do {
        choice = await vscode.window.showInformationMessage(
          `Add ${valid.length} ${valid.length === 1 ? 'person' : 'people'} from ${name} to ${folderLabel}?`,
          { modal: true, detail: `${file.notes.join('\n')}\nSent in batches of ${batchSize(args)}, ${concurrency(args)} at a time.`.trim() },
          add, curl,
        );
        // One command per batch, exactly as they would be sent.
        if (choice === curl) {
          const people = valid.map((r) => r.person);
          await copyCurl(where.connection, (client) => client.addPeople(where.folderKey, people, { batchSize: batchSize(args), concurrency: 1 }), `the batches to ${folderLabel}`);
        }
      } while (choice === curl);
      c.confirmed = choice === add;
    },
  };
}
