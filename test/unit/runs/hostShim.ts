/**
 * The parts of `vscode` the run shell uses beyond the file system stand-in (../fs/vscodeShim.ts):
 * progress, messages (and their buttons) and quick picks and input boxes answered by the test, read-only
 * documents, commands recorded, `Uri.joinPath` of a folder on disk. Imported for its effect, before the shell.
 */
import '../fs/vscodeShim';
import Module from 'node:module';
import { join } from 'node:path';

type Pick = (items: unknown[], options: { title?: string }) => unknown;

/** What the shell showed and ran, and the answers the test gives it (first come, first used). */
export const ui = {
  messages: [] as string[],
  picks: [] as Array<{ title?: string; labels: string[] }>,
  documents: [] as Array<{ uri: string; text: string }>,
  commands: [] as Array<{ id: string; args: unknown[] }>,
  answers: [] as Pick[],
  /** The buttons each message offered, and the ones the test presses (first come, first used; none: dismissed). */
  buttons: [] as string[][],
  presses: [] as string[],
  reset(): void {
    this.messages = [];
    this.picks = [];
    this.documents = [];
    this.commands = [];
    this.answers = [];
    this.buttons = [];
    this.presses = [];
  },
};

const providers = new Map<string, { provideTextDocumentContent(uri: unknown): string }>();
const format = (message: string, ...args: unknown[]) =>
  message.replace(/\{(\d+)\}/g, (w, i: string) => (args[Number(i)] === undefined ? w : String(args[Number(i)])));
const answer = (items: unknown[], options: { title?: string } = {}) => {
  ui.picks.push({ title: options.title, labels: items.map((i) => (typeof i === 'string' ? i : (i as { label: string }).label)) });
  return Promise.resolve(ui.answers.shift()?.(items, options));
};
const message = (text: string, ...items: unknown[]) => {
  const buttons = items.filter((i): i is string => typeof i === 'string');
  ui.messages.push(text);
  ui.buttons.push(buttons);
  const press = buttons.length ? ui.presses.shift() : undefined;
  return Promise.resolve(press !== undefined && buttons.includes(press) ? press : undefined);
};

const shim = (Module as unknown as { _load(request: string): Record<string, unknown> })._load('vscode');
// The run host's journal folder: global storage is a folder on disk.
Object.assign(shim.Uri as object, { joinPath: (base: { fsPath: string }, ...parts: string[]) => ({ fsPath: join(base.fsPath, ...parts) }) });
Object.assign(shim, {
  l10n: { t: format },
  ProgressLocation: { Notification: 15, Window: 10 },
  CancellationError: class CancellationError extends Error {},
  window: {
    withProgress: (_o: unknown, task: (p: unknown, t: unknown) => unknown) =>
      task({ report: () => undefined }, { isCancellationRequested: false, onCancellationRequested: () => ({ dispose: () => undefined }) }),
    showQuickPick: answer,
    // The preview's reading: a busy quick input, shown and let go of.
    createQuickPick: () => ({ show: () => undefined, dispose: () => undefined, onDidHide: () => ({ dispose: () => undefined }) }),
    showInputBox: (options: { title?: string }) => answer([], options),
    showInformationMessage: message,
    showWarningMessage: message,
    showErrorMessage: message,
    showTextDocument: () => Promise.resolve(undefined),
    createOutputChannel: () => ({ info: () => undefined, warn: () => undefined, error: () => undefined, show: () => undefined }),
  },
  workspace: {
    registerTextDocumentContentProvider: (scheme: string, p: { provideTextDocumentContent(uri: unknown): string }) => {
      providers.set(scheme, p);
      return { dispose: () => providers.delete(scheme) };
    },
    openTextDocument: (uri: { scheme: string; toString(): string }) => {
      ui.documents.push({ uri: uri.toString(), text: providers.get(uri.scheme)?.provideTextDocumentContent(uri) ?? '' });
      return Promise.resolve({ uri });
    },
    asRelativePath: (p: string) => p,
    textDocuments: [],
  },
  languages: { setTextDocumentLanguage: (d: unknown) => Promise.resolve(d) },
  commands: {
    executeCommand: (id: string, ...args: unknown[]) => {
      ui.commands.push({ id, args });
      return Promise.resolve(undefined);
    },
  },
});
