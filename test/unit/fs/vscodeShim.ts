/**
 * The few parts of the `vscode` module the file system provider uses, as the
 * extension host gives them (Uri, EventEmitter, FileSystemError, the enums),
 * so the provider runs under Node against a real sandbox. Imported for its
 * effect, before the provider.
 */
import Module from 'node:module';

class Uri {
  private constructor(readonly scheme: string, readonly authority: string, readonly path: string, readonly query: string) {}
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
  constructor(message?: string | Uri, readonly code = 'Unknown') {
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

const shim = {
  Uri, EventEmitter, FileSystemError, Disposable,
  FileType: { File: 1, Directory: 2 },
  FilePermission: { Readonly: 1 },
  FileChangeType: { Changed: 1, Created: 2, Deleted: 3 },
};

const loader = Module as unknown as { _load(request: string, ...rest: unknown[]): unknown };
const load = loader._load.bind(Module);
loader._load = (request: string, ...rest: unknown[]) => (request === 'vscode' ? shim : load(request, ...rest));
