/**
 * A query's results following the server (no `vscode`): every list the run read (each kind in each folder, and
 * with subfolders each folder's folders) is a group the live feed reads whole, with If-None-Match; a list that
 * changed is matched again. An object that starts matching comes, one that stops matching or is gone leaves, one
 * whose version moved is changed. A subfolder made after the run is watched from the next poll; one removed leaves
 * with its objects.
 */
import { Kind, kind as kindOf } from '../model/kinds';
import type { BaseInfo } from '../model/types';
import type { GroupRead, WatchedGroup } from '../live/liveReads';
import type { Query } from './compile';
import type { Match } from './run';

/** A result's id: kind and Key (a Key is unique in its kind). */
export const matchId = (m: { kind: Kind; key: string }): string => `${m.kind.id}/${m.key}`;

export interface ResultChanges {
  added: Match[];
  changed: Match[];
  removed: Match[];
}

const folderKind = kindOf('folder');
const listId = (k: Kind, folderKey: string) => `${k.id}|${folderKey}`;

export class LiveResults {
  /** The matches of each list (kind|folder), by Key. */
  private readonly lists = new Map<string, Map<string, Match>>();
  private readonly groups = new Map<string, WatchedGroup>();
  /** Each folder's subfolders as last read. */
  private readonly children = new Map<string, string[]>();

  constructor(
    private readonly query: Query,
    private readonly kinds: readonly Kind[],
    private readonly subfolders: boolean,
    private readonly pageSize = 1000,
  ) {}

  /** A folder of the scope (the run read it, or a poll found it): its lists are watched. */
  addFolder(folderKey: string): void {
    for (const k of this.kinds) this.watch(k, folderKey);
    if (this.subfolders) this.watch(folderKind, folderKey);
  }

  /** A match as the run found it. */
  add(m: Match): void {
    const id = listId(m.kind, m.folderKey);
    const list = this.lists.get(id) ?? new Map<string, Match>();
    this.lists.set(id, list);
    list.set(m.key, m);
  }

  /** What the live feed reads: every page of every list. */
  watched(): WatchedGroup[] {
    return [...this.groups.values()];
  }

  /** A poll's changed lists, matched again: what came, changed and left. */
  apply(reads: readonly GroupRead[]): ResultChanges {
    const out: ResultChanges = { added: [], changed: [], removed: [] };
    for (const read of reads) {
      const g = read.group;
      if (this.groups.get(listId(g.kind, g.folderKey)) !== g) continue;
      if (g.kind === folderKind && this.subfolders) this.folderRead(g.folderKey, read.items, out);
      if (this.kinds.includes(g.kind)) this.listRead(g.kind, g.folderKey, read.items, out);
    }
    // An object that moved between folders of the scope left one list and came into another: it changed.
    const added = new Map(out.added.map((m) => [matchId(m), m]));
    out.removed = out.removed.filter((m) => {
      const moved = added.get(matchId(m));
      if (moved) {
        added.delete(matchId(m));
        out.changed.push(moved);
      }
      return !moved;
    });
    out.added = [...added.values()];
    return out;
  }

  private watch(k: Kind, folderKey: string): void {
    const id = listId(k, folderKey);
    if (!this.groups.has(id)) this.groups.set(id, { kind: k, folderKey, pageSize: this.pageSize, pages: 1, all: true });
  }

  private listRead(k: Kind, folderKey: string, items: readonly BaseInfo[], out: ResultChanges): void {
    const id = listId(k, folderKey);
    const held = this.lists.get(id) ?? new Map<string, Match>();
    const now = new Map<string, Match>();
    for (const object of items) {
      if (!object.Key || !this.query.matches(object)) continue;
      const m: Match = { kind: k, folderKey, key: object.Key, object };
      now.set(m.key, m);
      const was = held.get(m.key);
      if (!was) out.added.push(m);
      else if (was.object.ConcurrencyVersion !== object.ConcurrencyVersion) out.changed.push(m);
      else now.set(m.key, was);
    }
    for (const [key, m] of held) if (!now.has(key)) out.removed.push(m);
    this.lists.set(id, now);
  }

  /** A folder's folders: a new one is watched from the next poll, one gone leaves with everything under it. */
  private folderRead(folderKey: string, items: readonly BaseInfo[], out: ResultChanges): void {
    const now = items.flatMap((f) => (f.Key ? [f.Key] : []));
    const before = this.children.get(folderKey);
    this.children.set(folderKey, now);
    for (const key of now) if (!this.groups.has(listId(folderKind, key))) this.addFolder(key);
    for (const key of before ?? []) if (!now.includes(key)) this.dropFolder(key, out);
  }

  private dropFolder(folderKey: string, out: ResultChanges): void {
    for (const k of [...this.kinds, folderKind]) {
      const id = listId(k, folderKey);
      this.groups.delete(id);
      for (const m of this.lists.get(id)?.values() ?? []) out.removed.push(m);
      this.lists.delete(id);
    }
    const under = this.children.get(folderKey) ?? [];
    this.children.delete(folderKey);
    for (const key of under) this.dropFolder(key, out);
  }
}
