/**
 * A query's results following the server (no `vscode`): every list the run read (each kind in each folder) is a
 * group the live feed reads whole, with If-None-Match; a list that changed is matched again. An object that starts
 * matching comes, one that stops matching or is gone leaves, one whose version moved is changed. The scope's folders
 * are those the run read: the service does not create or delete folders (its folders answer GET only).
 */
import type { Kind } from '../model/kinds';
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

const listId = (k: Kind, folderKey: string) => `${k.id}|${folderKey}`;

export class LiveResults {
  /** The matches of each list (kind|folder), by Key. */
  private readonly lists = new Map<string, Map<string, Match>>();
  private readonly groups = new Map<string, WatchedGroup>();

  constructor(
    private readonly query: Query,
    private readonly kinds: readonly Kind[],
    private readonly pageSize = 1000,
  ) {}

  /** A folder the run read: its lists are watched. */
  addFolder(folderKey: string): void {
    for (const k of this.kinds) {
      const id = listId(k, folderKey);
      if (!this.groups.has(id)) this.groups.set(id, { kind: k, folderKey, pageSize: this.pageSize, pages: 1, all: true });
    }
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
      if (this.groups.get(listId(g.kind, g.folderKey)) === g) this.listRead(g.kind, g.folderKey, read.items, out);
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
}
