/** The user's connections (global state), the live Connection for each, and the active one. */
import vscode = require('vscode');
import { randomUUID } from 'crypto';
import type { TokenSet } from '../api/auth';
import { Connection } from './connection';
import { ConnectionInfo } from './connectionInfo';
import { HttpSettings } from './httpSettings';
import { askBeforeWrite } from './productionQuestion';
import { logRequest } from '../log';
import { TokenStore } from './tokenStore';
import type { SandboxHost } from './sandboxHost';

const listKey = 'oms.connections';
const activeKey = 'oms.activeConnection';

/** A connection asked for by id that is not in the list (removed meanwhile, or a stale argument). */
class ConnectionGone extends Error {
  constructor(readonly connectionId: string) {
    super(vscode.l10n.t('This connection is no longer in the Objects view (it was removed): add it again to work with its objects.'));
  }
}

export class ConnectionManager implements vscode.Disposable {
  private readonly live = new Map<string, Connection>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  readonly tokens: TokenStore;
  private readonly settings = new HttpSettings();
  /** Settles once the connections handed over at start (the environment's, with its token) are in place. */
  private restored: Promise<void> = Promise.resolve();

  constructor(
    private readonly context: vscode.ExtensionContext,
    readonly sandbox: SandboxHost,
  ) {
    this.tokens = new TokenStore(context.secrets);
  }

  list(): ConnectionInfo[] {
    return this.context.globalState.get<ConnectionInfo[]>(listKey, []);
  }

  get(id: string): Connection | undefined {
    const info = this.list().find((c) => c.id === id);
    if (!info) return undefined;
    let connection = this.live.get(id);
    if (!connection) {
      // Every request first waits for the connections to be restored: an editor a window reload reopens reads at once.
      const prepare = async (c: Connection) => {
        await this.restored;
        if (info.sandbox) await this.sandbox.ensureRunning(c, (baseUrl) => this.update(c.id, { baseUrl }));
      };
      connection = new Connection(info, { tokens: this.tokens, limits: () => this.settings.get(), askBeforeWrite, log: logRequest, prepare });
      this.live.set(id, connection);
    }
    return connection;
  }

  /** The live connection `id`, or the error every caller reports when it was removed (or never added). */
  require(id: string): Connection {
    const connection = this.get(id);
    if (!connection) throw new ConnectionGone(id);
    return connection;
  }

  /** Requests (and `whenRestored`) wait until `restoring` settles, whether it succeeds or not. */
  restoreWith(restoring: Promise<unknown>): void {
    this.restored = restoring.then(
      () => undefined,
      () => undefined,
    );
  }

  /** The connection `id` once the connections are restored: a read that starts before that does not fail for it. */
  async whenRestored(id: string): Promise<Connection> {
    await this.restored;
    return this.require(id);
  }

  all(): Connection[] {
    return this.list().map((c) => this.get(c.id)!);
  }

  get active(): Connection | undefined {
    const id = this.context.globalState.get<string>(activeKey);
    return (id && this.get(id)) || this.all()[0];
  }

  async setActive(id: string): Promise<void> {
    await this.context.globalState.update(activeKey, id);
    this.changed.fire();
  }

  async add(info: Omit<ConnectionInfo, 'id'> & { id?: string }, tokens?: TokenSet): Promise<Connection> {
    const full: ConnectionInfo = { ...info, id: info.id ?? randomUUID() };
    await this.save([...this.list().filter((c) => c.id !== full.id), full]);
    this.live.get(full.id)?.reset(full);
    const connection = this.get(full.id)!;
    if (tokens) await connection.setTokens(tokens);
    await this.setActive(full.id);
    return connection;
  }

  async update(id: string, patch: Partial<Omit<ConnectionInfo, 'id'>>): Promise<void> {
    const infos = this.list().map((c) => (c.id === id ? { ...c, ...patch } : c));
    await this.save(infos);
    this.live.get(id)?.reset(infos.find((c) => c.id === id)!);
    this.changed.fire();
  }

  async remove(id: string): Promise<void> {
    await this.tokens.delete(id);
    this.live.delete(id);
    await this.save(this.list().filter((c) => c.id !== id));
    if (this.context.globalState.get(activeKey) === id) await this.context.globalState.update(activeKey, undefined);
    this.changed.fire();
  }

  /** Tell listeners that sign-in state changed. */
  fireChanged(): void {
    this.changed.fire();
  }

  private save(infos: ConnectionInfo[]): Thenable<void> {
    return this.context.globalState.update(listKey, infos);
  }

  dispose(): void {
    this.tokens.dispose();
    this.settings.dispose();
    this.changed.dispose();
  }
}
