/**
 * What a query file's editor shows as you type, at file offsets: its problems (the scope lines', then each query
 * compiled for its scope's kinds: errors and unknown fields with the nearest names) and completion (kind ids and
 * yes/no in scope lines, the scope keys after `#`, and in a query what the query box offers: fields, nested fields,
 * enum values and functions of the kinds in scope).
 */
import { kindLabel } from '../l10n';
import { compileQuery } from './compile';
import { completeAt, Completion } from './complete';
import { FileProblem, parseQueryFile, queryKinds, scopeKeys } from './queryFile';

export interface FileCompletion {
  label: string;
  insert: string;
  kind: Completion['kind'] | 'scope' | 'kind';
  detail?: string;
}

export interface FileCompletions {
  /** Where the replaced text starts, a file offset; it ends at the offset asked about. */
  from: number;
  items: FileCompletion[];
}

export function queryFileProblems(text: string): FileProblem[] {
  const file = parseQueryFile(text);
  const problems = [...file.problems];
  for (const q of file.queries) {
    const c = compileQuery(q.text, q.scope.kinds ?? queryKinds);
    const at = (p: { message: string; position: number; length: number }, severity: FileProblem['severity']): FileProblem => ({
      message: p.message,
      start: q.start + Math.min(p.position, q.text.length),
      length: p.length,
      severity,
    });
    if ('error' in c) problems.push(at(c.error, 'error'));
    else problems.push(...c.warnings.map((w) => at(w, 'warning')));
  }
  return problems.sort((a, b) => a.start - b.start);
}

export function queryFileCompletions(text: string, offset: number): FileCompletions {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const before = text.slice(lineStart, offset);
  const none = { from: offset, items: [] };
  if (/^\s*#/.test(before)) {
    const key = /^\s*#\s*([A-Za-z]*)$/.exec(before);
    if (key) {
      const from = offset - key[1].length;
      const typed = key[1].toLowerCase();
      return { from, items: scopeKeys.filter((k) => k.startsWith(typed)).map((k) => ({ label: `${k}:`, insert: `${k}: `, kind: 'scope' })) };
    }
    const value = /^\s*#\s*(kinds|subfolders)\s*:(.*?)([^\s,:]*)$/i.exec(before);
    if (!value) return none;
    const from = offset - value[3].length;
    if (value[1].toLowerCase() === 'subfolders') return { from, items: ['yes', 'no'].map((v) => ({ label: v, insert: v, kind: 'value' })) };
    const listed = value[2].toLowerCase().split(/[\s,]+/);
    const items = queryKinds
      .filter((k) => !listed.includes(k.id.toLowerCase()))
      .map((k): FileCompletion => ({ label: k.id, insert: k.id, kind: 'kind', detail: kindLabel(k) }));
    return { from, items };
  }
  const file = parseQueryFile(text);
  const q = file.queries.find((x) => x.start <= offset && offset <= x.end);
  if (q) {
    const c = completeAt(q.text, offset - q.start, q.scope.kinds ?? queryKinds);
    return { from: q.start + c.from, items: c.items };
  }
  if (before.trim()) return none;
  // A blank line: a query starts here, with the scope the lines above give it.
  const scope = parseQueryFile(`${text.slice(0, lineStart)}@`).queries.at(-1)?.scope;
  const c = completeAt('', 0, scope?.kinds ?? queryKinds);
  return { from: offset, items: c.items };
}
