/**
 * Finds where a JSON pointer's value sits in JSON text, so a diagnostic can be
 * put on the right spot. The text is read by jsonc-parser (VS Code's own JSON
 * scanner): comments and trailing commas are tolerated as in VS Code's JSON
 * editor, the last of duplicate keys wins as in JSON.parse, and text it cannot
 * read gives undefined.
 *
 * Plain TypeScript: no `vscode` import.
 */
// The ES module build: the package's main entry is a UMD wrapper whose requires esbuild cannot follow.
import { Node, parseTree, ParseError } from 'jsonc-parser';

export interface TextRange {
  offset: number;
  length: number;
}

/** The text range of the value at `pointer` ("" for the whole document), or undefined. */
export function locate(text: string, pointer: string): TextRange | undefined {
  const segments = splitPointer(pointer);
  const root = segments && readTree(text);
  const node = root && nodeAt(root, segments);
  return node && { offset: node.offset, length: node.length };
}

/**
 * The range at `pointer`, or of its deepest ancestor that exists (for a
 * missing property, its object), with the pointer actually found.
 */
export function locateNearest(text: string, pointer: string): (TextRange & { pointer: string }) | undefined {
  const segments = splitPointer(pointer);
  const root = segments && readTree(text);
  if (!root) return undefined;
  for (let n = segments.length; n >= 0; n--) {
    const node = nodeAt(root, segments.slice(0, n));
    if (node) return { offset: node.offset, length: node.length, pointer: joinPointer(segments.slice(0, n)) };
  }
  return undefined;
}

function readTree(text: string): Node | undefined {
  const errors: ParseError[] = [];
  // A byte order mark becomes a space: skipped, and every offset stays the same.
  const root = parseTree(text.replace(/^\uFEFF/, ' '), errors, { allowTrailingComma: true, disallowComments: false });
  return errors.length ? undefined : root;
}

function nodeAt(root: Node, segments: readonly string[]): Node | undefined {
  let node: Node | undefined = root;
  for (const segment of segments) {
    if (node?.type === 'object') {
      // The last member of a name, as JSON.parse keeps it.
      const members: Node[] = (node.children ?? []).filter((p) => p.children?.[0].value === segment);
      node = members[members.length - 1]?.children?.[1];
    } else if (node?.type === 'array') {
      node = /^(0|[1-9]\d*)$/.test(segment) ? node.children?.[Number(segment)] : undefined;
    } else {
      return undefined;
    }
  }
  return node;
}

function splitPointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function joinPointer(segments: readonly string[]): string {
  return segments.map((s) => `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}
