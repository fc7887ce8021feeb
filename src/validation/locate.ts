/**
 * Finds where a JSON pointer's value sits in JSON text, so a diagnostic can be
 * put on the right spot. A small hand parser: it tolerates comments and
 * trailing commas (as VS Code's JSON editor does), takes the last of duplicate
 * keys (as JSON.parse does) and gives up (undefined) on text it cannot read.
 *
 * Plain TypeScript: no `vscode` import.
 */

export interface TextRange {
  offset: number;
  length: number;
}

interface Found {
  value: TextRange;
  /** The member's key (with quotes) when the value is an object member. */
  key?: TextRange;
}

/** The text range of the value at `pointer` ("" for the whole document), or undefined. */
export function locate(text: string, pointer: string): TextRange | undefined {
  return find(text, pointer)?.value;
}

/**
 * The range of the key of the member at `pointer` (a shorter mark for a
 * diagnostic on a large value); the value's range for array items and the root.
 */
export function locateKey(text: string, pointer: string): TextRange | undefined {
  const found = find(text, pointer);
  return found && (found.key ?? found.value);
}

/**
 * The range at `pointer`, or of its deepest ancestor that exists (for a
 * missing property, its object), with the pointer actually found.
 */
export function locateNearest(text: string, pointer: string): (TextRange & { pointer: string }) | undefined {
  let segments = splitPointer(pointer);
  if (!segments) return undefined;
  for (;;) {
    const p = joinPointer(segments);
    const range = locate(text, p);
    if (range) return { ...range, pointer: p };
    if (segments.length === 0) return undefined;
    segments = segments.slice(0, -1);
  }
}

function splitPointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  return pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function joinPointer(segments: string[]): string {
  return segments.map((s) => `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

class Unreadable extends Error {}

const literalPattern = /true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

function find(text: string, pointer: string): Found | undefined {
  const path = splitPointer(pointer);
  if (!path) return undefined;
  try {
    const scanner = new Scanner(text);
    const found = scanner.value(path, undefined);
    scanner.skipTrivia();
    if (scanner.pos !== text.length) return undefined; // trailing garbage: not JSON
    return found;
  } catch (e) {
    if (e instanceof Unreadable) return undefined;
    throw e;
  }
}

class Scanner {
  pos = 0;
  constructor(private readonly text: string) {}

  private fail(): never {
    throw new Unreadable();
  }

  skipTrivia(): void {
    const t = this.text;
    while (this.pos < t.length) {
      const c = t[this.pos];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\ufeff') {
        this.pos++;
      } else if (c === '/' && t[this.pos + 1] === '/') {
        const end = t.indexOf('\n', this.pos);
        this.pos = end < 0 ? t.length : end + 1;
      } else if (c === '/' && t[this.pos + 1] === '*') {
        const end = t.indexOf('*/', this.pos + 2);
        if (end < 0) this.fail();
        this.pos = end + 2;
      } else {
        return;
      }
    }
  }

  /**
   * Reads one value. When `path` is empty this value is the target; otherwise
   * the target is inside it. Returns the target if found (the whole value is
   * always consumed, so later duplicates can override).
   */
  value(path: string[] | undefined, key: TextRange | undefined): Found | undefined {
    this.skipTrivia();
    const start = this.pos;
    const c = this.text[this.pos];
    let found: Found | undefined;
    if (c === '{') found = this.object(path);
    else if (c === '[') found = this.array(path);
    else if (c === '"') this.string();
    else this.literal();
    if (path && path.length === 0) return { value: { offset: start, length: this.pos - start }, key };
    return found;
  }

  private object(path: string[] | undefined): Found | undefined {
    const want = path && path.length > 0 ? path[0] : undefined;
    let found: Found | undefined;
    this.pos++; // {
    this.skipTrivia();
    while (this.text[this.pos] !== '}') {
      if (this.pos >= this.text.length) this.fail();
      const keyStart = this.pos;
      const name = this.string();
      const key = { offset: keyStart, length: this.pos - keyStart };
      this.skipTrivia();
      if (this.text[this.pos] !== ':') this.fail();
      this.pos++;
      const hit = this.value(want !== undefined && name === want ? path!.slice(1) : undefined, key);
      if (hit) found = hit; // the last duplicate wins, as in JSON.parse
      if (!this.separator('}')) break;
    }
    this.pos++; // }
    return found;
  }

  private array(path: string[] | undefined): Found | undefined {
    const want = path && path.length > 0 && /^(0|[1-9]\d*)$/.test(path[0]) ? Number(path[0]) : undefined;
    let found: Found | undefined;
    this.pos++; // [
    this.skipTrivia();
    for (let index = 0; this.text[this.pos] !== ']'; index++) {
      if (this.pos >= this.text.length) this.fail();
      const hit = this.value(index === want ? path!.slice(1) : undefined, undefined);
      if (hit) found = hit;
      if (!this.separator(']')) break;
    }
    this.pos++; // ]
    return found;
  }

  /** After a member or item: consumes a comma (true) or stops before `close` (false). */
  private separator(close: string): boolean {
    this.skipTrivia();
    const c = this.text[this.pos];
    if (c === ',') {
      this.pos++;
      this.skipTrivia();
      return true; // a trailing comma leaves `close` next, which ends the loop
    }
    if (c !== close) this.fail();
    return false;
  }

  /** Reads a string token at `pos` and returns its decoded value. */
  private string(): string {
    const t = this.text;
    if (t[this.pos] !== '"') this.fail();
    const start = this.pos;
    this.pos++;
    while (this.pos < t.length && t[this.pos] !== '"') {
      if (t[this.pos] === '\\') this.pos++;
      if (t[this.pos] === '\n') this.fail();
      this.pos++;
    }
    if (this.pos >= t.length) this.fail();
    this.pos++;
    try {
      return JSON.parse(t.slice(start, this.pos)) as string;
    } catch {
      return this.fail();
    }
  }

  private literal(): void {
    literalPattern.lastIndex = this.pos;
    const m = literalPattern.exec(this.text);
    if (!m) this.fail();
    this.pos += m[0].length;
  }
}
