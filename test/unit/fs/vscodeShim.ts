/**
 * The few parts of the `vscode` module the file system provider, the save entry
 * and the command targets use, as the extension host gives them (Uri,
 * EventEmitter, FileSystemError, the enums), so they run under Node against a
 * real sandbox. What the window would show is recorded in `shown` (messages)
 * and answered by `answers` (quick picks: the first item whose label matches,
 * else Escape). Imported for its effect, before the modules that use it.
 */
import Module from 'node:module';

class Uri {
  private constructor(
    readonly scheme: string,
    readonly authority: string,
    readonly path: string,
    readonly query: string,
  ) {}
  static from(c: { scheme: string; authority?: string; path?: string; query?: string }): Uri {
    return new Uri(c.scheme, c.authority ?? '', c.path ?? '', c.query ?? '');
  }
  static parse(text: string): Uri {
    const m = /^([a-z][\w+.-]*):\/\/([^/?]*)([^?]*)(?:\?(.*))?$/i.exec(text);
    if (!m) throw new Error(`not a Uri: ${text}`);
    return new Uri(m[1], m[2], decodeURIComponent(m[3]), decodeURIComponent(m[4] ?? ''));
  }
  with(change: { scheme?: string; path?: string; query?: string }): Uri {
    return new Uri(change.scheme ?? this.scheme, this.authority, change.path ?? this.path, change.query ?? this.query);
  }
  // As VS Code writes it: path segments and the query percent-encoded.
  toString(): string {
    const path = this.path.split('/').map(encodeURIComponent).join('/');
    return `${this.scheme}://${this.authority}${path}${this.query ? `?${encodeURIComponent(this.query)}` : ''}`;
  }
}

class EventEmitter<T> {
  private readonly listeners = new Set<(e: T) => void>();
  readonly event = (listener: (e: T) => void) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }
  dispose(): void {
    this.listeners.clear();
  }
}

class FileSystemError extends Error {
  constructor(
    message?: string | Uri,
    readonly code = 'Unknown',
  ) {
    super(String(message));
  }
  static FileNotFound = (m?: string | Uri) => new FileSystemError(m, 'FileNotFound');
  static NoPermissions = (m?: string | Uri) => new FileSystemError(m, 'NoPermissions');
  static Unavailable = (m?: string | Uri) => new FileSystemError(m, 'Unavailable');
}

class Disposable {
  constructor(private readonly fn: () => void) {}
  dispose(): void {
    this.fn();
  }
}

class CancellationError extends Error {
  constructor() {
    super('Canceled');
  }
}

class ThemeColor {
  constructor(readonly id: string) {}
}

/** A span of a document; the tests' documents number their positions by offset. */
class Range {
  constructor(
    readonly start: number,
    readonly end: number,
  ) {}
}

/** Text edits, as `workspace.applyEdit` gets them. */
export class WorkspaceEdit {
  readonly replaced: Array<{ uri: Uri; range: Range; text: string }> = [];
  replace(uri: Uri, range: Range, text: string): void {
    this.replaced.push({ uri, range, text });
  }
}

/** The documents open (`workspace.textDocuments`): none unless a test opens one. */
export const openDocuments: unknown[] = [];
/** What `workspace.applyEdit` does: by default nothing, answered true. */
export const editing: { apply?: (edit: WorkspaceEdit) => boolean } = {};

/** A message the window showed: its kind, text and the actions it offered. */
export interface Shown {
  kind: 'info' | 'warning' | 'error' | 'status' | 'quickPick';
  text: string;
  actions: string[];
}

/** What the window showed, in order; cleared by the tests that read it. */
export const shown: Shown[] = [];
/** Quick picks answered by label (a pattern), in order; none left: Escape. Error messages: the action to choose. */
export const answers: { picks: RegExp[]; errorAction?: string } = { picks: [] };
/** Commands run through `commands.executeCommand`, with their arguments. */
export const executed: Array<{ id: string; args: unknown[] }> = [];

const message =
  (kind: Shown['kind']) =>
  (text: string, ...rest: unknown[]) => {
    const actions = rest.filter((a): a is string => typeof a === 'string');
    shown.push({ kind, text, actions });
    return Promise.resolve(kind === 'error' && answers.errorAction && actions.includes(answers.errorAction) ? answers.errorAction : undefined);
  };

const willSave = new EventEmitter<{ document: { uri: Uri }; reason: number }>();

const shim = {
  Uri,
  EventEmitter,
  FileSystemError,
  Disposable,
  CancellationError,
  Range,
  WorkspaceEdit,
  ThemeColor,
  FileType: { File: 1, Directory: 2 },
  FilePermission: { Readonly: 1 },
  FileChangeType: { Changed: 1, Created: 2, Deleted: 3 },
  TextDocumentSaveReason: { Manual: 1, AfterDelay: 2, FocusOut: 3 },
  l10n: { t: (text: string, ...args: unknown[]) => text.replace(/\{(\d+)\}/g, (_m, i: string) => String(args[Number(i)])) },
  workspace: {
    textDocuments: openDocuments,
    onWillSaveTextDocument: willSave.event,
    onDidCloseTextDocument: new EventEmitter<unknown>().event,
    applyEdit: (edit: WorkspaceEdit) => Promise.resolve(editing.apply ? editing.apply(edit) : true),
  },
  window: {
    showInformationMessage: message('info'),
    showWarningMessage: message('warning'),
    showErrorMessage: message('error'),
    setStatusBarMessage: (text: string) => (shown.push({ kind: 'status', text, actions: [] }), new Disposable(() => undefined)),
    showQuickPick: (items: Array<{ label: string }>, options?: { placeHolder?: string }) => {
      shown.push({ kind: 'quickPick', text: options?.placeHolder ?? '', actions: items.map((i) => i.label) });
      const wanted = answers.picks.shift();
      return Promise.resolve(wanted ? items.find((i) => wanted.test(i.label)) : undefined);
    },
    createOutputChannel: () => ({ info: () => undefined, warn: () => undefined, error: () => undefined, show: () => undefined, dispose: () => undefined }),
  },
  commands: {
    executeCommand: (id: string, ...args: unknown[]) => (executed.push({ id, args }), Promise.resolve(undefined)),
  },
};

/** The editor's save is about to write `uri`, for `reason` (TextDocumentSaveReason). */
export function willSaveDocument(uri: Uri, reason: number): void {
  willSave.fire({ document: { uri }, reason });
}

const loader = Module as unknown as { _load(request: string, ...rest: unknown[]): unknown };
const load = loader._load.bind(Module);
loader._load = (request: string, ...rest: unknown[]) => (request === 'vscode' ? shim : load(request, ...rest));
