/**
 * A query file (`.omsq`, language `oms-query`): queries a team keeps in git, each run from its CodeLens. The format
 * (docs/architecture.md, "Query files"):
 *
 *   - a line whose first non-blank character is `#` is a comment; `### Title` is a heading;
 *   - `# kinds: inputScanner, person`, `# folder: Head Office/Floor 1` (or a folder's key), `# subfolders: yes|no`
 *     and `# connection: <name>` are scope lines: each holds for the queries below it up to the next heading, and
 *     those above the first heading hold for the whole file;
 *   - a query is a run of other non-blank lines (JMESPath: one or more lines); a blank line or a comment ends it.
 *
 * Plain text in, offsets out: the editor's providers and the tests read the same parse.
 */
import { Kind, objectKinds, supports } from '../model/kinds';
import { l10n } from '../l10n';
import { nearestNames } from './nearest';

export const scopeKeys = ['kinds', 'folder', 'subfolders', 'connection'] as const;
export type ScopeKey = (typeof scopeKeys)[number];

/** What a query runs over; unset fields are the defaults (every listable kind, the instance, with subfolders, the active connection). */
export interface QueryScope {
  kinds?: Kind[];
  folder?: string;
  subfolders?: boolean;
  connection?: string;
}

export interface FileQuery {
  /** The query's text as the file holds it (its lines, newlines included). */
  text: string;
  /** Offsets of the text in the file: [start, end). */
  start: number;
  end: number;
  /** 0-based line of its first line. */
  line: number;
  /** Its heading's title or the comment just above it, when there is one. */
  title?: string;
  scope: QueryScope;
}

/** A problem in a scope line, at file offsets. */
export interface FileProblem {
  message: string;
  start: number;
  length: number;
  severity: 'error' | 'warning';
}

/** A scope line: its key, and its value with the value's offset in the file. */
export interface ScopeLine {
  key: ScopeKey;
  value: string;
  valueStart: number;
  /** 0-based line. */
  line: number;
}

export interface ParsedQueryFile {
  queries: FileQuery[];
  scopeLines: ScopeLine[];
  problems: FileProblem[];
}

/** The kinds a query may name: those that can be listed, by id. */
export const queryKinds: readonly Kind[] = objectKinds.filter((k) => supports(k, 'list'));

const scopeLine = /^(\s*#\s*)([A-Za-z]+)(\s*:\s*)(.*?)\s*$/;
const heading = /^\s*###(?!#)\s*(.*?)\s*$/;
const comment = /^\s*#/;

export function parseQueryFile(text: string): ParsedQueryFile {
  const queries: FileQuery[] = [];
  const scopeLines: ScopeLine[] = [];
  const problems: FileProblem[] = [];
  let fileScope: QueryScope = {};
  let scope: QueryScope = {};
  let beforeFirstHeading = true;
  let title: string | undefined;
  let open: FileQuery | undefined;
  let offset = 0;
  const lines = text.split('\n');
  for (let line = 0; line < lines.length; line++) {
    const raw = lines[line];
    const start = offset;
    offset += raw.length + 1;
    const content = raw.replace(/\r$/, '');
    if (!content.trim() || comment.test(content)) open = undefined;
    if (!content.trim()) continue;
    const h = heading.exec(content);
    if (h) {
      beforeFirstHeading = false;
      scope = { ...fileScope };
      title = h[1] || undefined;
      continue;
    }
    const s = scopeLine.exec(content);
    const key = s && scopeKeys.find((k) => k === s[2].toLowerCase());
    if (s && key) {
      const at = { key, value: s[4], valueStart: start + s[1].length + s[2].length + s[3].length, line };
      scopeLines.push(at);
      const set = readScope(at, problems);
      scope = { ...scope, ...set };
      if (beforeFirstHeading) fileScope = { ...fileScope, ...set };
      continue;
    }
    if (s) {
      // `# kind: …` is a misspelt scope line more often than prose.
      const near = nearestNames(s[2], scopeKeys, 1);
      if (near.length)
        problems.push({
          message: l10n.t('"{0}" is not a scope line and is read as a comment; did you mean "{1}:"?', s[2], near[0]),
          start: start + s[1].length,
          length: s[2].length,
          severity: 'warning',
        });
    }
    if (comment.test(content)) {
      title = content.replace(/^\s*#+\s*/, '') || title;
      continue;
    }
    if (open) {
      open.text = text.slice(open.start, start + content.length);
      open.end = start + content.length;
    } else {
      open = { text: content, start, end: start + content.length, line, title, scope: { ...scope } };
      queries.push(open);
      title = undefined;
    }
  }
  return { queries, scopeLines, problems };
}

/** A scope line's value read; a bad one is a problem and sets nothing. */
function readScope(at: ScopeLine, problems: FileProblem[]): QueryScope {
  const bad = (message: string, start = at.valueStart, length = Math.max(1, at.value.length)) => {
    problems.push({ message, start, length, severity: 'error' });
    return {};
  };
  switch (at.key) {
    case 'kinds': {
      const kinds: Kind[] = [];
      const word = /[^\s,]+/g;
      for (let m = word.exec(at.value); m; m = word.exec(at.value)) {
        const k = queryKinds.find((q) => q.id.toLowerCase() === m[0].toLowerCase());
        if (!k) {
          const near = nearestNames(
            m[0],
            queryKinds.map((q) => q.id),
          );
          return bad(
            near.length
              ? l10n.t('{0} is not a kind a query can read; nearest: {1}', m[0], near.join(', '))
              : l10n.t('{0} is not a kind a query can read; kinds: {1}', m[0], queryKinds.map((q) => q.id).join(', ')),
            at.valueStart + m.index,
            m[0].length,
          );
        }
        if (!kinds.includes(k)) kinds.push(k);
      }
      return kinds.length ? { kinds } : bad(l10n.t('Name one or more kinds: {0}', queryKinds.map((q) => q.id).join(', ')));
    }
    case 'subfolders': {
      const v = at.value.toLowerCase();
      if (['yes', 'true'].includes(v)) return { subfolders: true };
      if (['no', 'false'].includes(v)) return { subfolders: false };
      return bad(l10n.t('subfolders is yes or no'));
    }
    case 'folder':
      // Empty or `/`: the instance itself.
      return { folder: at.value.replace(/^\/+|\/+$/g, '') };
    case 'connection':
      return at.value ? { connection: at.value } : bad(l10n.t('Name a connection, as the Objects view shows it'));
  }
}

/** The query at `offset` (on one of its lines), else the first one below it. */
export function queryAt(file: ParsedQueryFile, offset: number): FileQuery | undefined {
  return file.queries.find((q) => offset <= q.end);
}
