/**
 * The manifest's text: JSON, its head pretty-printed and then one line per
 * object, sorted (a changed object is one line of git's diff). A folder of
 * 100,000 objects has a manifest of 30 MB: in this form it is read a slice
 * at a time, letting others run between slices, and a few changed objects
 * are written by replacing their lines (found by binary search over the
 * file's bytes) rather than by printing every object again. Any other JSON text of the manifest (an
 * older format, a hand edit) is still read, whole, and written in this form.
 */
import type { Manifest, ManifestObject } from './manifest';
import { Slices } from './slices';

const objectsOpen = '\n  "objects": {\n';
const objectsClose = '\n  }\n}\n';
/** Object lines parsed at once (about 2 ms). */
const linesAtOnce = 500;

/** The head as written: every field but the objects, pretty-printed, then the opening of the objects. */
function headText(manifest: Omit<Manifest, 'objects'> & { objects?: unknown }): string {
  const { objects: _objects, ...head } = manifest;
  const text = JSON.stringify({ ...head, folders: sortedRecord(manifest.folders), objects: {} }, null, 2);
  return text.slice(0, text.length - '\n  "objects": {}\n}'.length) + objectsOpen.slice(0, -1);
}

/** The start of an object's line, up to its value: lines sort by it. */
function lineStart(key: string): string {
  return `    ${JSON.stringify(key)}: `;
}

/** An entry as JSON, as its manifest and journal lines hold it. */
export const printed = (object: ManifestObject): string => JSON.stringify(object);

function objectLine(key: string, object: ManifestObject, text = printed(object)): string {
  return lineStart(key) + text;
}

/** The whole text of `manifest`. */
export function manifestText(manifest: Manifest): string {
  return linesText(
    manifest,
    Array.from(manifest.objects, ([key, o]) => objectLine(key, o)),
  ).join('');
}

/** The text of the head of `manifest` with these object lines (`objectLines`, in any order: sorted here, in place), as pieces in order. */
export function linesText(manifest: Omit<Manifest, 'objects'>, lines: string[]): Piece[] {
  return joinPieces(headText(manifest), lines.sort());
}

/**
 * The object lines of these objects, made a slice at a time and handed to `part` a thousand at most at once, in no
 * order; an entry in `texts` is not printed again.
 */
export async function objectLines(
  objects: ReadonlyMap<string, ManifestObject>,
  part: (lines: string[]) => void,
  texts?: ReadonlyMap<ManifestObject, string>,
): Promise<void> {
  let lines: string[] = [];
  const slices = new Slices();
  for (const [key, o] of objects) {
    lines.push(objectLine(key, o, texts?.get(o)));
    const due = slices.due();
    if (lines.length < 1000 && !due) continue;
    part(lines);
    lines = [];
    if (due) await slices.pause();
  }
  part(lines);
}

/** The manifest's text from its head and object lines, as pieces in order (written one after the other, no string of the whole file is built). */
function joinPieces(head: string, lines: readonly Piece[]): Piece[] {
  const out: Piece[] = [head];
  lines.forEach((line, i) => out.push(i ? ',\n' : '\n', line));
  out.push(objectsClose);
  return out;
}

/** The head (parsed) and where the objects' lines are, [start, end) of a file in this form; undefined for any other. */
interface Body {
  head: unknown;
  start: number;
  end: number;
}

/**
 * The body of a file's `bytes`, every line checked to be an object's (`    "key": {…},`, the last without its comma),
 * none decoded: 100,000 lines are checked in 4 ms, where decoding their 25 MB took 20.
 */
function bodyOf(bytes: Buffer): Body | undefined {
  if (!bodies.has(bytes)) bodies.set(bytes, checkedBody(bytes));
  return bodies.get(bytes);
}

/** Bodies found so far: an apply's read and write of the manifest check its lines once. */
const bodies = new WeakMap<Buffer, Body | undefined>();

function checkedBody(bytes: Buffer): Body | undefined {
  const open = bytes.indexOf(objectsOpen);
  const close = bytes.length - objectsClose.length;
  if (open < 0 || !holds(bytes, close, objectsClose)) return undefined;
  const head = parseHead(bytes.toString('utf8', 0, open));
  if (!head) return undefined;
  const start = open + objectsOpen.length;
  const end = Math.max(start, close); // no objects: the close follows the open at once
  for (let s = start; s < end;) {
    const e = lineEnd(bytes, s, end);
    const last = e === end;
    if (!holds(bytes, s, '    "') || !holds(bytes, e - (last ? 1 : 2), last ? '}' : '},')) return undefined;
    s = e + 1;
  }
  return { head, start, end };
}

/**
 * Parses the manifest's bytes: in this form a slice of its lines at a time, letting others run between slices (no string
 * of the whole text is made); any other text, or one whose lines do not parse a slice at a time, whole.
 */
export async function parseManifestText(bytes: Buffer): Promise<unknown> {
  const whole = () => JSON.parse(bytes.toString()) as unknown;
  const open = bytes.indexOf(objectsOpen);
  const end = bytes.length - objectsClose.length;
  const head = open >= 0 && end >= 0 && bytes.toString('latin1', end) === objectsClose ? parseHead(bytes.toString('utf8', 0, open)) : undefined;
  if (!head) return whole();
  const objects = new Map<string, unknown>();
  const slices = new Slices();
  for (let from = open + objectsOpen.length, at = from, lines = 0; at < end;) {
    const newline = bytes.indexOf(newlineByte, at);
    const lineEnd = newline < 0 || newline > end ? end : newline;
    const last = lineEnd === end;
    if (!holds(bytes, at, '    "') || !holds(bytes, lineEnd - (last ? 1 : 2), last ? '}' : '},')) return whole();
    at = lineEnd + 1;
    // The lines so far are parsed at once, up to `linesAtOnce` of them: parsing takes most of a slice's time.
    const due = slices.due();
    if (++lines % linesAtOnce && !last && !due) continue;
    try {
      own(objects, JSON.parse(`{${bytes.toString('utf8', from, last ? lineEnd : lineEnd - 1)}}`) as Record<string, unknown>);
    } catch {
      return whole(); // an object over several lines: valid only whole
    }
    from = at;
    if (due) await slices.pause();
  }
  return { ...head, objects };
}

const newlineByte = 0x0a;

/** Whether `bytes` hold the ASCII text `ascii` at `at` (UTF-8: a byte under 0x80 is always that character). */
function holds(bytes: Buffer, at: number, ascii: string): boolean {
  if (at < 0 || at + ascii.length > bytes.length) return false;
  for (let i = 0; i < ascii.length; i++) if (bytes[at + i] !== ascii.charCodeAt(i)) return false;
  return true;
}

/** The head of a text in this form (all before its objects), parsed; undefined when it is not JSON. */
function parseHead(before: string): object | undefined {
  try {
    return JSON.parse(`${before}\n  "objects": {}\n}`) as object;
  } catch {
    return undefined;
  }
}

/** The objects of `keys` (those it holds) and the head, parsing only their lines; undefined for a file not in this form. */
export function pickObjects(bytes: Buffer, keys: Iterable<string>): unknown {
  const body = bodyOf(bytes);
  if (!body) return undefined;
  const objects = new Map<string, unknown>();
  for (const { at, hit } of findLines(bytes, body, keys).values()) {
    if (hit) own(objects, JSON.parse(`{${withoutComma(lineAt(bytes, at, body.end))}}`) as Record<string, unknown>);
  }
  return { ...(body.head as object), objects };
}

/** A piece of a manifest file as written: new text, or a run of the bytes it was read from (not copied). */
export type Piece = string | Buffer;

/**
 * The file with the head of `manifest` and the lines of `changed` keys as `manifest` now has them (absent: removed),
 * as pieces to be written in order; undefined when the file is not in this form. The lines between are runs of its
 * bytes, neither decoded nor copied: work and memory follow the changes (100,000 objects' 25 MB decoded, patched and
 * encoded again took 110 ms an apply).
 */
export function patchManifestText(bytes: Buffer, manifest: Manifest, changed: Iterable<string>): Piece[] | undefined {
  const keys = [...changed];
  const open = bytes.indexOf(objectsOpen);
  if (!keys.length && open >= 0 && holds(bytes, bytes.length - objectsClose.length, objectsClose)) {
    return [headText(manifest), bytes.subarray(open + objectsOpen.length - 1)]; // no object changed: the head alone (a pull with nothing new)
  }
  const body = bodyOf(bytes);
  if (!body) return undefined;
  // Per line start: new lines that sort before that line, and the line itself replaced (null: removed).
  const edits = new Map<number, { before: string[]; line?: string | null }>();
  for (const [key, { at, hit }] of findLines(bytes, body, keys)) {
    const object = manifest.objects.get(key);
    const edit = edits.get(at) ?? { before: [] };
    edits.set(at, edit);
    if (hit) edit.line = object ? objectLine(key, object) : null;
    else if (object) edit.before.push(objectLine(key, object));
  }
  const units: Piece[] = [];
  let from = body.start;
  for (const at of [...edits.keys()].sort((a, b) => a - b)) {
    const { before, line } = edits.get(at)!;
    if (at > from) units.push(run(bytes, from, at));
    units.push(...before.sort());
    if (line === undefined) {
      from = at;
    } else {
      if (line) units.push(line);
      from = Math.min(lineEnd(bytes, at, body.end) + 1, body.end);
    }
  }
  if (body.end > from) units.push(run(bytes, from, body.end));
  return joinPieces(headText(manifest), units);
}

/**
 * Each key's line (`at` its start, `hit`), by binary search over the sorted lines (not found: `at` where it sorts);
 * keys not found so are looked for once more line by line (a hand-edited manifest may be out of order), so none is
 * ever written twice. Lines are compared as text, as they were sorted: only the lines looked at are decoded.
 */
function findLines(bytes: Buffer, body: Body, keys: Iterable<string>): Map<string, { at: number; hit: boolean }> {
  const found = new Map<string, { at: number; hit: boolean }>();
  const missing = new Map<string, string>();
  for (const key of keys) {
    if (found.has(key)) continue;
    const start = lineStart(key);
    // lo and hi are line starts: the lines before lo sort before `start`, those from hi do not.
    let lo = body.start,
      hi = body.end;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const s = Math.max(lo, bytes.lastIndexOf(newlineByte, mid - 1) + 1);
      if (lineAt(bytes, s, body.end).slice(0, start.length) < start) lo = Math.min(lineEnd(bytes, s, body.end) + 1, body.end);
      else hi = s;
    }
    const hit = lo < body.end && lineAt(bytes, lo, body.end).startsWith(start);
    found.set(key, { at: lo, hit });
    if (!hit) missing.set(start, key);
  }
  for (let s = body.start; missing.size && s < body.end;) {
    const line = lineAt(bytes, s, body.end);
    const key = missing.get(line.slice(0, line.indexOf('": ') + 3));
    if (key !== undefined) {
      found.set(key, { at: s, hit: true });
      missing.delete(lineStart(key));
    }
    s = lineEnd(bytes, s, body.end) + 1;
  }
  return found;
}

/** Where the line starting at `s` ends (its newline, or the body's end). */
function lineEnd(bytes: Buffer, s: number, end: number): number {
  const e = bytes.indexOf(newlineByte, s);
  return e < 0 || e > end ? end : e;
}

/** The line starting at `s`, decoded. */
function lineAt(bytes: Buffer, s: number, end: number): string {
  return bytes.toString('utf8', s, lineEnd(bytes, s, end));
}

/** The lines of [from, to) without the newline and comma that end the last. */
function run(bytes: Buffer, from: number, to: number): Buffer {
  let e = to;
  if (bytes[e - 1] === newlineByte) e--;
  if (bytes[e - 1] === 0x2c) e--;
  return bytes.subarray(from, e);
}

function withoutComma(line: string): string {
  return line.endsWith(',') ? line.slice(0, -1) : line;
}

function sortedRecord<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Adds `from`'s entries (a slice of lines parsed as one object: a Key `__proto__` is its own property there) to `to`. */
function own(to: Map<string, unknown>, from: Record<string, unknown>): void {
  for (const k of Object.keys(from)) to.set(k, from[k]);
}
