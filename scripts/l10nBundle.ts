// `npm run l10n`: the l10n bundle of every string the extension shows (l10n/bundle.l10n.json), for
// translators. l10n-dev finds the literal `l10n.t` calls of modules that import it from `vscode` or
// `@vscode/l10n`; it is handed src/ with our own `l10n` (src/l10n.ts, for modules that also run
// without VS Code) imported as `@vscode/l10n`. The labels of the kinds registry (shown through
// `kindLabel` of src/l10n.ts), of the status codes, the push types and the encodings are added from those tables,
// and the schemas' words for people (errorMessage, patternErrorMessage, enumDescriptions), which
// src/validation/validator.ts shows through src/l10n.ts.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { getL10nJson } from '@vscode/l10n-dev';
import { kinds } from '../src/model/kinds';
import { otherEncodings } from '../src/people/encoding';
import { pushTypeLabels } from '../src/model/pushTypes';
import { statusCodeLabels } from '../src/model/statusCodes';

/** The strings of the schemas under `dir` that the validator's messages show. */
function schemaWords(dir: string): string[] {
  const words: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if ((key === 'errorMessage' || key === 'patternErrorMessage') && typeof value === 'string') words.push(value);
      else if (key === 'enumDescriptions' && Array.isArray(value)) words.push(...value.filter((v): v is string => typeof v === 'string'));
      else walk(value);
    }
  };
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile() && e.name.endsWith('.schema.json')) walk(JSON.parse(fs.readFileSync(path.join(e.parentPath, e.name), 'utf8')));
  }
  return words;
}

async function main(): Promise<void> {
  const repo = path.resolve(__dirname, '..');
  const bundle = path.join(repo, 'l10n', 'bundle.l10n.json');
  const sources = fs
    .readdirSync(path.join(repo, 'src'), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => ({
      extension: '.ts',
      contents: fs.readFileSync(path.join(e.parentPath, e.name), 'utf8').replace(/from '(?:\.\.?\/)+l10n'/g, "from '@vscode/l10n'"),
    }));
  const messages = (await getL10nJson(sources)) as Record<string, string>;
  const registries = [
    ...[...kinds.values()].flatMap((k) => [k.label, k.pluralLabel]),
    ...Object.values(statusCodeLabels),
    ...Object.values(pushTypeLabels),
    ...otherEncodings.map((e) => e.label),
    ...schemaWords(path.join(repo, 'schemas')),
  ];
  for (const label of registries) messages[label] ??= label;
  fs.writeFileSync(bundle, `${JSON.stringify(messages, null, 2)}\n`);
  console.log(`${path.relative(repo, bundle)}: ${Object.keys(messages).length} strings`);
}

void main();
