/** Which indexed objects a query matches, and in what order they are shown. */
import type { IndexEntry } from './objectIndex';

/** The words of a query, lower-cased; an object matches when its name holds every one. */
export function queryWords(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter(Boolean);
}

export function matches(entry: IndexEntry, words: readonly string[]): boolean {
  const name = entry.name.toLowerCase();
  return words.every((w) => name.includes(w));
}

/**
 * Recently opened first (most recent first), then names that start with the
 * query, then the rest by name.
 */
export function rank(entries: readonly IndexEntry[], words: readonly string[], recent: readonly string[]): IndexEntry[] {
  const recency = new Map(recent.map((key, i) => [key, i]));
  const first = words[0] ?? '';
  const score = (e: IndexEntry) => (recency.has(e.key) ? recency.get(e.key)! : recent.length + (e.name.toLowerCase().startsWith(first) ? 0 : 1));
  return [...entries].sort((a, b) => score(a) - score(b) || a.name.localeCompare(b.name));
}

/** "Head Office › Floor 1": the folders below the root, or the root's name for objects in it. */
export function folderPathText(entry: IndexEntry): string {
  const below = entry.folders.slice(1).map((f) => f.name);
  return below.length ? below.join(' › ') : (entry.folders[0]?.name ?? '');
}

/** Most recently opened first, each key once, at most `max`. */
export function recentWith(recent: readonly string[], key: string, max = 50): string[] {
  return [key, ...recent.filter((k) => k !== key)].slice(0, max);
}
