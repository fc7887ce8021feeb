/**
 * Every string a user reads goes through `vscode.l10n.t` or src/l10n.ts: the sources are parsed with
 * the TypeScript compiler and every literal with words (letters and a space) that reaches a place the
 * user reads is reported where it is not the message of an `l10n.t` call. The places: the message of an
 * error (`new …Error(…)`, `super(…)` in one), of showInformation/Warning/ErrorMessage, `notify` and the
 * other message-taking calls below, the words of quick picks, input boxes, progress and items (title,
 * placeholder, prompt, label, description, detail, tooltip, reason, …), and the other branches of a
 * choice or of a function's returns where one branch is localized. A count before a plural noun needs
 * its singular message. And the bundle holds every message as its own key, so each can match.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import ts from 'typescript';

const repo = path.resolve(__dirname, '../../..');
const src = path.join(repo, 'src');

/**
 * Files whose strings are not shown by the extension. The sandbox is the service's stand-in: its
 * answers are the service's own words (English, as the real service's), which the client quotes.
 */
const notUserFacing = [/^sandbox\//, /^testApi\.ts$/];

/**
 * The registries' labels: l10nBundle.ts adds them to the bundle and they are translated where shown
 * (src/l10n.ts, the encoding and push type pickers).
 */
const registries = ['model/kinds.ts', 'model/pushTypes.ts', 'model/statusCodes.ts', 'people/encoding.ts'];

/** Files other branches are rewriting with their words now; the second test lists what they still hold. */
const messageCalls = new Set([
  'showInformationMessage',
  'showWarningMessage',
  'showErrorMessage',
  'notify',
  'showQuickPick',
  'FileNotFound',
  'FileExists',
  'NoPermissions',
  'Unavailable',
  'FileIsADirectory',
  'FileNotADirectory',
  'TreeItem',
  'MessageNode',
  'InlayHint',
  'CodeAction',
  'Diagnostic',
  'Hover',
  'MarkdownString',
  'StatusBarItem',
  'CancellationError',
]);
const wordProperties = new Set([
  'title',
  'placeholder',
  'placeHolder',
  'prompt',
  'label',
  'description',
  'detail',
  'tooltip',
  'validationMessage',
  'reason',
  'message',
  'note',
  'error',
]);

/** Literal text that reads as words: a letter and a space. */
const isWords = (text: string): boolean => {
  const words = text.replace(/\$\([\w-]+(~spin)?\)/g, '').trim();
  return /\p{L}/u.test(words) && /\s/.test(words);
};

const isL10nCall = (node: ts.Node): boolean =>
  ts.isCallExpression(node) &&
  ts.isPropertyAccessExpression(node.expression) &&
  node.expression.name.text === 't' &&
  /(^|\.)l10n$/.test(node.expression.expression.getText());

const joining = [ts.SyntaxKind.PlusToken, ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken];

/** The literal words in `node` that are not the message of an l10n.t call. */
function bareWords(node: ts.Expression): ts.Node[] {
  if (isL10nCall(node)) return [];
  if (ts.isArrayLiteralExpression(node)) return node.elements.flatMap((e) => (ts.isSpreadElement(e) ? [] : bareWords(e)));
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return isWords(node.text) ? [node] : [];
  if (ts.isTemplateExpression(node)) {
    const text = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ');
    return isWords(text) ? [node] : node.templateSpans.flatMap((s) => bareWords(s.expression));
  }
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isNonNullExpression(node)) return bareWords(node.expression);
  if (ts.isConditionalExpression(node)) return [...bareWords(node.whenTrue), ...bareWords(node.whenFalse)];
  if (ts.isBinaryExpression(node) && joining.includes(node.operatorToken.kind)) {
    return [...bareWords(node.left), ...bareWords(node.right)];
  }
  return [];
}

const calledName = (node: ts.CallExpression | ts.NewExpression): string => {
  const e = node.expression;
  return ts.isIdentifier(e) ? e.text : ts.isPropertyAccessExpression(e) ? e.name.text : '';
};

const extendsError = (node: ts.Node): boolean => {
  const cls = ts.findAncestor(node, ts.isClassLike);
  return !!cls?.heritageClauses?.some((h) => h.types.some((t) => t.expression.getText().endsWith('Error')));
};

/** What a function returns (not its nested functions'). */
function returned(fn: ts.SignatureDeclaration): ts.Expression[] {
  const body = (fn as { body?: ts.Node }).body;
  if (!body) return [];
  if (!ts.isBlock(body)) return [body as ts.Expression];
  const found: ts.Expression[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isReturnStatement(node) && node.expression) found.push(node.expression);
    if (!ts.isFunctionLike(node)) ts.forEachChild(node, visit);
  };
  ts.forEachChild(body, visit);
  return found;
}

/** A function that returns a localized message in one place returns messages: its other literal words too. */
const branches = (e: ts.Expression): ts.Expression[] =>
  ts.isConditionalExpression(e) ? [...branches(e.whenTrue), ...branches(e.whenFalse)] : ts.isParenthesizedExpression(e) ? branches(e.expression) : [e];

function mixedReturns(fn: ts.SignatureDeclaration): ts.Node[] {
  const values = returned(fn).flatMap(branches);
  return values.some(isL10nCall) ? values.flatMap(bareWords) : [];
}

const isChoice = (node: ts.Node): boolean =>
  ts.isConditionalExpression(node) ||
  (ts.isBinaryExpression(node) && [ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken].includes(node.operatorToken.kind));

/** The values a choice (`a ? b : c`, `a ?? b`, `a || b`, chained) can give. */
const choices = (e: ts.Expression): ts.Expression[] =>
  ts.isParenthesizedExpression(e)
    ? choices(e.expression)
    : ts.isConditionalExpression(e)
      ? [...choices(e.whenTrue), ...choices(e.whenFalse)]
      : isChoice(e)
        ? [...choices((e as ts.BinaryExpression).left), ...choices((e as ts.BinaryExpression).right)]
        : [e];

/** A choice between a localized message and literal words is a choice between messages: the literal too. */
function mixedChoice(e: ts.Expression): ts.Node[] {
  const values = choices(e);
  return values.some(isL10nCall) ? values.flatMap(bareWords) : [];
}

/** Each user-facing literal of `file` that skips l10n, as `path:line: text`. */
function unlocalized(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const found: ts.Node[] = [];
  const visit = (node: ts.Node): void => {
    const isSuper = ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.SuperKeyword;
    if (isSuper && extendsError(node)) found.push(...node.arguments.flatMap(bareWords));
    else if (ts.isNewExpression(node) && messageCalls.has(calledName(node))) found.push(...(node.arguments ?? []).flatMap(bareWords));
    else if (ts.isNewExpression(node) && calledName(node).endsWith('Error')) found.push(...(node.arguments ?? []).flatMap(bareWords));
    else if (ts.isCallExpression(node) && messageCalls.has(calledName(node))) found.push(...node.arguments.flatMap(bareWords));
    else if (ts.isPropertyAssignment(node) && wordProperties.has(node.name.getText())) found.push(...bareWords(node.initializer));
    else if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isPropertyAccessExpression(node.left) &&
      wordProperties.has(node.left.name.text)
    )
      found.push(...bareWords(node.right));
    else if (ts.isFunctionLike(node)) found.push(...mixedReturns(node));
    else if (isChoice(node) && !isChoice(node.parent)) found.push(...mixedChoice(node as ts.Expression));
    ts.forEachChild(node, visit);
  };
  visit(source);
  const name = path.relative(src, file).split(path.sep).join('/');
  const bundle = registries.includes(name) ? readBundle() : {};
  return [...new Set(found)]
    .filter((n) => !(ts.isStringLiteral(n) && n.text in bundle))
    .map((n) => `${name}:${source.getLineAndCharacterOfPosition(n.getStart()).line + 1}: ${n.getText().slice(0, 100)}`);
}

const readBundle = (): Record<string, string> => JSON.parse(fs.readFileSync(path.join(repo, 'l10n', 'bundle.l10n.json'), 'utf8')) as Record<string, string>;

/** A count before a plural noun: "{0} objects". */
const nouns =
  'objects|files|people|persons|items|rows|batches|batch requests|entries|changes|diffs|runs|requests|scanners|sites|writes|errors|problems|keys' +
  '|recipients|matches|folders|fields|characters|blank rows|lines';
const counted = new RegExp(`\\{\\d\\} (${nouns})\\b`);

/** Whether `node` is a branch of a choice on a count of one (`n === 1 ? … : …`). */
const chosenByCount = (node: ts.Node): boolean =>
  !!ts.findAncestor(node.parent, (a) => {
    if (ts.isStatement(a) || ts.isFunctionLike(a)) return 'quit';
    return ts.isConditionalExpression(a) && /[=!<>]=*\s*1\b|\b1\s*[=!<>]/.test(a.condition.getText());
  });

/** Each l10n.t message with a count before a plural noun that is not chosen by the count (so "1 objects" can show). */
function pluralsWithoutSingular(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (isL10nCall(node)) {
      const message = (node as ts.CallExpression).arguments[0];
      if (message && ts.isStringLiteralLike(message) && counted.test(message.text) && !chosenByCount(node)) {
        found.push(`${path.relative(src, file).split(path.sep).join('/')}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${message.text}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const sourceFiles = (): string[] =>
  fs
    .readdirSync(src, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => path.join(e.parentPath, e.name))
    .filter((f) => !notUserFacing.some((r) => r.test(path.relative(src, f).split(path.sep).join('/'))))
    .sort();
test('every user-facing string of src/ goes through l10n.t', () => {
  const found = sourceFiles().flatMap(unlocalized);
  assert.deepEqual(found, [], `not localizable (wrap in vscode.l10n.t or l10n.t from src/l10n.ts):\n${found.join('\n')}`);
});

test('a count before a plural noun has its singular message too (no "1 objects")', () => {
  const found = sourceFiles().flatMap(pluralsWithoutSingular);
  assert.deepEqual(found, [], `give the count of one its own message (n === 1 ? l10n.t('1 object') : l10n.t('{0} objects', n)):\n${found.join('\n')}`);
});

test('the scan finds bare messages and counts without a singular, and passes their l10n.t forms', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oms-localizable-'));
  try {
    const file = path.join(dir, 'sample.ts');
    fs.writeFileSync(
      file,
      [
        'throw new Error(`The file ${name} is not a file on disk`);',
        "vscode.window.showWarningMessage('Nothing was sent', 'Retry');",
        "const pick = { title: cond ? 'Pull as Files' : l10n.t('Pull'), placeholder: vscode.l10n.t('Pick a folder') };",
        "throw new ApiError('network', l10n.t('No answer from {0}', host));",
        "const problem = owned ?? (changed ? `$type cannot change (${was})` : undefined) ?? l10n.t('The service cannot update it');",
        "const said = n === 1 ? l10n.t('1 object') : l10n.t('{0} objects', n);",
        "const written = l10n.t('{0} files written', n);",
      ].join('\n'),
    );
    assert.deepEqual(
      unlocalized(file).map((l) => l.replace(/^.*sample\.ts:/, '')),
      ['1: `The file ${name} is not a file on disk`', "2: 'Nothing was sent'", "3: 'Pull as Files'", '5: `$type cannot change (${was})`'],
    );
    assert.deepEqual(
      pluralsWithoutSingular(file).map((l) => l.replace(/^.*sample\.ts:/, '')),
      ['7: {0} files written'],
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('every key of the bundle is its own message, so each can match the text that asks for it', () => {
  const bundle = readBundle();
  const wrong = Object.entries(bundle)
    .filter(([key, value]) => key !== value)
    .map(([key]) => key);
  assert.deepEqual(wrong, []);
  const odd = Object.keys(bundle).filter((key) => /[\u0fff\ufffd]/u.test(key));
  assert.deepEqual(odd, [], 'a key holding U+0FFF or U+FFFD was read from an escape that l10n-dev does not decode; pass the character as an argument');
});
