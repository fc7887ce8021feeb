/**
 * Run Query: a query of a query file (`.omsq`) run through Find Objects Where… with its scope: the kinds, the folder
 * (names from the instance down, or a key: query/folderPath.ts), subfolders, and the connection the file names, else
 * the active one. The CodeLens above a query names its file and line, and the file is read again when it runs (a
 * lens's arguments are those of the text it was drawn for: one clicked right after an edit would run the old
 * query); from the palette or Ctrl+Enter, the query at the cursor.
 *
 * Args: `{ query, kinds?: string[], folder?, subfolders?, connection? }` (a connection's name or id), or a query
 * file's `{ uri, line, otherSubfolders? }` (the query on that line or below; `otherSubfolders` runs it with the
 * other choice of subfolders than the file's).
 */
import vscode = require('vscode');
import { folderKeyOfPath } from '../../query/folderPath';
import { parseQueryFile, queryAt } from '../../query/queryFile';
import { activeConnectionTarget, ConnectionTarget, targeted } from '../framework/commandTargets';
import type { Services } from '../framework/command';

interface QueryArgs {
  query: string;
  kinds?: string[];
  folder?: string;
  subfolders?: boolean;
  connection?: string;
}

interface QueryTarget extends ConnectionTarget {
  args: QueryArgs;
}

export const runQuery = targeted({
  id: 'oms.runQuery',
  target: queryTarget,
  async run(_s, { connection, args }: QueryTarget) {
    const folderKey = await folderKeyOfPath(connection.client, await connection.rootFolderKey(), args.folder ?? '');
    await vscode.commands.executeCommand('oms.findObjectsWhere', {
      connectionId: connection.id,
      folderKey,
      kinds: args.kinds,
      query: args.query,
      subfolders: args.subfolders ?? true,
      run: true,
    });
  },
});

/** The query (given, or at the cursor of the query file in the editor) and its connection: the one it names, else the active one. */
async function queryTarget(s: Services, arg: unknown): Promise<QueryTarget> {
  const args = queryArgs(arg) ?? (await atLine(arg)) ?? atCursor();
  if (!args.connection) return { ...(await activeConnectionTarget(s, undefined)), args };
  const wanted = args.connection.trim().toLowerCase();
  const all = s.connections.list();
  const info = all.find((c) => c.id === args.connection) ?? all.find((c) => c.label.trim().toLowerCase() === wanted);
  if (!info)
    throw new Error(
      vscode.l10n.t('There is no connection "{0}" ({1})', args.connection, all.map((c) => c.label).join(', ') || vscode.l10n.t('no connection yet')),
    );
  return { connection: s.connections.require(info.id), args };
}

function queryArgs(arg: unknown): QueryArgs | undefined {
  const a = arg as Partial<Record<keyof QueryArgs, unknown>> | undefined;
  if (typeof a?.query !== 'string') return undefined;
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return {
    query: a.query,
    kinds: Array.isArray(a.kinds) ? a.kinds.filter((k): k is string => typeof k === 'string') : undefined,
    folder: text(a.folder),
    subfolders: typeof a.subfolders === 'boolean' ? a.subfolders : undefined,
    connection: text(a.connection),
  };
}

/** A lens's `{ uri, line }`: the file as it is now. */
async function atLine(arg: unknown): Promise<QueryArgs | undefined> {
  const a = arg as { uri?: unknown; line?: unknown; otherSubfolders?: unknown } | undefined;
  if (typeof a?.uri !== 'string' || typeof a.line !== 'number') return undefined;
  const uri = a.uri;
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri) ?? (await vscode.workspace.openTextDocument(vscode.Uri.parse(uri)));
  const args = inFile(doc, doc.offsetAt(new vscode.Position(a.line, 0)));
  return a.otherSubfolders === true ? { ...args, subfolders: !(args.subfolders ?? true) } : args;
}

function atCursor(): QueryArgs {
  const editor = vscode.window.activeTextEditor;
  if (editor?.document.languageId !== 'oms-query') throw new Error(vscode.l10n.t('Open a query file (.omsq) and put the cursor on a query'));
  return inFile(editor.document, editor.document.offsetAt(editor.selection.active));
}

/** The query on the line of `offset` or below, with its scope. */
function inFile(doc: vscode.TextDocument, offset: number): QueryArgs {
  const q = queryAt(parseQueryFile(doc.getText()), offset);
  if (!q) throw new Error(vscode.l10n.t('There is no query at or below the cursor'));
  return { query: q.text, kinds: q.scope.kinds?.map((k) => k.id), folder: q.scope.folder, subfolders: q.scope.subfolders, connection: q.scope.connection };
}
