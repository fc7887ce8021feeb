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
  return join(headText(manifest), lines);
}

function join(head: string, lines: string[]): string {
  return `${head}${lines.length ? '\n' : ''}${lines.join(',\n')}${objectsClose}`;
}

/** The head (parsed) and the objects' lines of a text in this form; undefined for any other text. */
function split(text: string): { head: unknown; lines: string[] } | undefined {
  const open = text.indexOf(objectsOpen);
  if (open < 0 || !text.endsWith(objectsClose)) return undefined;
  let head: unknown;
  try {
    head = JSON.parse(`${text.slice(0, open)}\n  "objects": {}\n}`);
  } catch {
    return undefined;
  }
  const body = text.slice(open + objectsOpen.length, text.length - objectsClose.length);
  const lines = body ? body.split('\n') : [];
  const ok = lines.every((l, i) => l.startsWith('    "') && l.endsWith(i === lines.length - 1 ? '}' : '},'));
  return ok ? { head, lines } : undefined;
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
  const parts = split(text);
  if (!parts) return undefined;
  const objects = Object.create(null) as Record<string, unknown>;
  const found = findLines(parts.lines, keys);
  for (const [, i] of found) if (i !== undefined) own(objects, JSON.parse(`{${withoutComma(parts.lines[i])}}`) as Record<string, unknown>);
  return { ...(parts.head as object), objects };
}

/**
 * The text with the head of `manifest` and the lines of `changed` keys as `manifest` now has them (absent: removed);
 * undefined when the text is not in this form. Work and memory follow the changes, besides copying the text once.
 */
export function patchManifestText(text: string, manifest: Manifest, changed: Iterable<string>): string | undefined {
  const keys = [...changed];
  if (!keys.length && text.indexOf(objectsOpen) >= 0 && text.endsWith(objectsClose)) {
    const open = text.indexOf(objectsOpen); // no object changed: the head alone (a pull with nothing new)
    return headText(manifest) + text.slice(open + objectsOpen.length - 1);
  }
  const parts = split(text);
  if (!parts) return undefined;
  const { lines } = parts;
  const found = findLines(lines, keys);
  const inserts: string[] = [];
  const out: Array<string | undefined> = lines;
  for (const [key, i] of found) {
    const object = Object.hasOwn(manifest.objects, key) ? manifest.objects[key] : undefined;
    if (i === undefined) {
      if (object) inserts.push(objectLine(key, object));
    } else {
      out[i] = object ? objectLine(key, object) : undefined;
    }
  }
  inserts.sort();
  const merged: string[] = [];
  let next = 0;
  for (const line of out) {
    if (line === undefined) continue;
    while (next < inserts.length && inserts[next] < line) merged.push(inserts[next++]);
    merged.push(withoutComma(line));
  }
  while (next < inserts.length) merged.push(inserts[next++]);
  return join(headText(manifest), merged);
}

/**
 * Each key's line index (undefined: not there), by binary search over the sorted lines; keys not found so are
 * looked for once more line by line (a hand-edited manifest may be out of order), so none is ever written twice.
 */
function findLines(lines: readonly string[], keys: Iterable<string>): Map<string, number | undefined> {
  const found = new Map<string, number | undefined>();
  const missing = new Map<string, string>();
  for (const key of keys) {
    if (found.has(key)) continue;
    const start = lineStart(key);
    let lo = 0, hi = lines.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (lines[mid] < start) lo = mid + 1;
      else hi = mid;
    }
    const hit = lo < lines.length && lines[lo].startsWith(start);
    found.set(key, hit ? lo : undefined);
    if (!hit) missing.set(start, key);
  }
  if (missing.size) {
    lines.forEach((line, i) => {
      const key = missing.get(line.slice(0, line.indexOf('": ') + 3));
      if (key !== undefined) found.set(key, i);
    });
  }
  return found;
}

function withoutComma(line: string): string {
  return line.endsWith(',') ? line.slice(0, -1) : line;
}

function sortedRecord<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Copies `from`'s entries as own properties: a Key such as `__proto__` is an entry, not a prototype. */
function own(to: Record<string, unknown>, from: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(from)) Object.defineProperty(to, k, { value: v, enumerable: true, writable: true, configurable: true });
}
