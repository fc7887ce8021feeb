/**
 * The format of the sandbox's data files. The snapshot `<file>`: line 1 a
 * header (`format`, `version`, `instanceKey`, `seq`), then one line per stored
 * object or outbox entry (`StoredEntry`). The journal `<file>.journal`: one
 * line per change after the snapshot, `{"s": seq, "c": change}`. Version 1
 * files (one JSON document with `objects` and `outbox`) are still read.
 */

/** One stored object or outbox entry of the snapshot, as it is written, in order. */
export type StoredEntry = { kind: string; object: unknown } | { outbox: unknown };

/** What the journal records; applied in order on load. */
export type Change = { op: 'put'; kind: string; object: unknown } | { op: 'delete'; key: string } | { op: 'outbox'; entry: unknown } | { op: 'clearOutbox' };

/** A state to write as the snapshot. */
export interface Snapshot {
  instanceKey: string;
  /** Called once; yields the JSON text of each entry, in order. */
  entries: () => Iterable<string>;
}

export const format = 'oms-sandbox';
export const currentVersion = 2;

/** The snapshot's first line. */
export function headerLine(instanceKey: string, seq: number): string {
  return `${JSON.stringify({ format, version: currentVersion, instanceKey, seq })}\n`;
}

/** The journal line of change number `seq`, from the change's JSON text. */
export function changeLine(seq: number, changeJson: string): string {
  return `{"s":${seq},"c":${changeJson}}\n`;
}

/** A line's JSON value; undefined when it does not parse (a torn write). */
export function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
