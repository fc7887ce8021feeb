/**
 * The manifest's text: JSON, its head pretty-printed and then one line per
 * object, sorted (a changed object is one line of git's diff). A folder of
 * 100,000 objects has a manifest of 30 MB: in this form it is read a slice
 * at a time, letting others run between slices, and a few changed objects
 * are written by replacing their lines (found by binary search) rather than
 * by printing every object again. Any other JSON text of the manifest (an
 * older format, a hand edit) is still read, whole, and written in this form.
 */
import type { Manifest, ManifestObject } from './manifest';
import { Slices } from './slices';

const objectsOpen = '\n  "objects": {\n';
const objectsClose = '\n  }\n}\n';
/** Object lines parsed at once (about 2 ms). */
const linesAtOnce = 500;

/** The head as written: every field but the objects, pretty-printed, then the opening of the objects. */
function headText(manifest: Manifest): string {
  const { objects: _objects, ...head } = manifest;
  const text = JSON.stringify({ ...head, folders: sortedRecord(manifest.folders), objects: {} }, null, 2);
  return text.slice(0, text.length - '\n  "objects": {}\n}'.length) + objectsOpen.slice(0, -1);
}

/** The start of an object's line, up to its value: lines sort by it. */
function lineStart(key: string): string {
  return `    ${JSON.stringify(key)}: `;
}

function objectLine(key: string, object: ManifestObject): string {
  return lineStart(key) + JSON.stringify(object);
}

/** The whole text of `manifest`. */
export function manifestText(manifest: Manifest): string {
  const lines = Object.entries(manifest.objects).map(([key, o]) => objectLine(key, o)).sort();
  return joinPieces(headText(manifest), lines).join('');
}

/** The manifest's text from its head and object lines, as pieces in order (written one after the other, no string of the whole file is built). */
function joinPieces(head: string, lines: string[]): string[] {
  const out = [head];
  lines.forEach((line, i) => out.push(i ? ',\n' : '\n', line));
  out.push(objectsClose);
  return out;
}

/** The head (parsed) and where the objects' lines are, [start, end) of a text in this form; undefined for any other text. */
interface Body {
  head: unknown;
  start: number;
  end: number;
}

/** The body of `text`, every line checked to be an object's (`    "key": {…},`, the last without its comma), none copied. */
function bodyOf(text: string): Body | undefined {
  const open = text.indexOf(objectsOpen);
  if (open < 0 || !text.endsWith(objectsClose)) return undefined;
  let head: unknown;
  try {
    head = JSON.parse(`${text.slice(0, open)}\n  "objects": {}\n}`);
  } catch {
    return undefined;
  }
  const start = open + objectsOpen.length;
  const end = Math.max(start, text.length - objectsClose.length); // no objects: the close follows the open at once
  for (let s = start; s < end;) {
    const e = lineEnd(text, s, end);
    const last = e === end;
    if (!text.startsWith('    "', s) || text.charCodeAt(last ? e - 1 : e - 2) !== 0x7d || (!last && text.charCodeAt(e - 1) !== 0x2c)) return undefined;
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
  const objects = Object.create(null) as Record<string, unknown>;
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

/** The objects of `keys` (those it holds) and the head, parsing only their lines; undefined for a text not in this form. */
export function pickObjects(text: string, keys: Iterable<string>): unknown {
  const body = bodyOf(text);
  if (!body) return undefined;
  const objects = Object.create(null) as Record<string, unknown>;
  for (const { at, hit } of findLines(text, body, keys).values()) {
    if (hit) own(objects, JSON.parse(`{${withoutComma(text.slice(at, lineEnd(text, at, body.end)))}}`) as Record<string, unknown>);
  }
  return { ...(body.head as object), objects };
}

/**
 * The text with the head of `manifest` and the lines of `changed` keys as `manifest` now has them (absent: removed),
 * as pieces to be written in order; undefined when the text is not in this form. The lines between are runs of the
 * text, not copied: work and memory follow the changes (joined, 100,000 objects' 30 MB held the thread 20 ms).
 */
export function patchManifestText(text: string, manifest: Manifest, changed: Iterable<string>): string[] | undefined {
  const keys = [...changed];
  if (!keys.length && text.indexOf(objectsOpen) >= 0 && text.endsWith(objectsClose)) {
    const open = text.indexOf(objectsOpen); // no object changed: the head alone (a pull with nothing new)
    return [headText(manifest), text.slice(open + objectsOpen.length - 1)];
  }
  const body = bodyOf(text);
  if (!body) return undefined;
  // Per line start: new lines that sort before that line, and the line itself replaced (null: removed).
  const edits = new Map<number, { before: string[]; line?: string | null }>();
  for (const [key, { at, hit }] of findLines(text, body, keys)) {
    const object = Object.hasOwn(manifest.objects, key) ? manifest.objects[key] : undefined;
    const edit = edits.get(at) ?? { before: [] };
    edits.set(at, edit);
    if (hit) edit.line = object ? objectLine(key, object) : null;
    else if (object) edit.before.push(objectLine(key, object));
  }
  const units: string[] = [];
  let from = body.start;
  for (const at of [...edits.keys()].sort((a, b) => a - b)) {
    const { before, line } = edits.get(at)!;
    if (at > from) units.push(runText(text, from, at));
    units.push(...before.sort());
    if (line === undefined) {
      from = at;
    } else {
      if (line) units.push(line);
      from = Math.min(lineEnd(text, at, body.end) + 1, body.end);
    }
  }
  if (body.end > from) units.push(runText(text, from, body.end));
  return joinPieces(headText(manifest), units);
}

/**
 * Each key's line (`at` its start, `hit`), by binary search over the sorted lines (not found: `at` where it sorts);
 * keys not found so are looked for once more line by line (a hand-edited manifest may be out of order), so none is
 * ever written twice.
 */
function findLines(text: string, body: Body, keys: Iterable<string>): Map<string, { at: number; hit: boolean }> {
  const found = new Map<string, { at: number; hit: boolean }>();
  const missing = new Map<string, string>();
  for (const key of keys) {
    if (found.has(key)) continue;
    const start = lineStart(key);
    // lo and hi are line starts: the lines before lo sort before `start`, those from hi do not.
    let lo = body.start, hi = body.end;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const s = Math.max(lo, text.lastIndexOf('\n', mid - 1) + 1);
      if (text.slice(s, s + start.length) < start) lo = Math.min(lineEnd(text, s, body.end) + 1, body.end);
      else hi = s;
    }
    const hit = lo < body.end && text.startsWith(start, lo);
    found.set(key, { at: lo, hit });
    if (!hit) missing.set(start, key);
  }
  for (let s = body.start; missing.size && s < body.end;) {
    const e = lineEnd(text, s, body.end);
    const prefix = text.slice(s, text.indexOf('": ', s) + 3);
    const key = missing.get(prefix);
    if (key !== undefined) {
      found.set(key, { at: s, hit: true });
      missing.delete(prefix);
    }
    s = e + 1;
  }
  return found;
}

/** Where the line starting at `s` ends (its newline, or the body's end). */
function lineEnd(text: string, s: number, end: number): number {
  const e = text.indexOf('\n', s);
  return e < 0 || e > end ? end : e;
}

/** The lines of [from, to) without the newline and comma that end the last. */
function runText(text: string, from: number, to: number): string {
  let e = to;
  if (text.charCodeAt(e - 1) === 0x0a) e--;
  if (text.charCodeAt(e - 1) === 0x2c) e--;
  return text.slice(from, e);
}

function withoutComma(line: string): string {
  return line.endsWith(',') ? line.slice(0, -1) : line;
}

function sortedRecord<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * Copies `from`'s entries into `to`, a record with no prototype: there a Key such as `__proto__` is assigned as an entry
 * (no setter is inherited), not a prototype. Assigned, not defined: 10,000 entries in 1 ms rather than 8.
 */
function own(to: Record<string, unknown>, from: Record<string, unknown>): void {
  for (const k of Object.keys(from)) to[k] = from[k];
}
