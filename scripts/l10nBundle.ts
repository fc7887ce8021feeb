// `npm run l10n`: the l10n bundle of every string the extension shows (l10n/bundle.l10n.json), for
// translators. `vscode-l10n-dev export` (run first by the npm script) finds the literal
// `vscode.l10n.t` calls in src/; the kinds registry's labels (shown through src/localized.ts)
// are added here from the registry itself.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { kinds } from '../src/model/kinds';

const repo = path.resolve(__dirname, '..');
const bundle = path.join(repo, 'l10n', 'bundle.l10n.json');
const messages = JSON.parse(fs.readFileSync(bundle, 'utf8')) as Record<string, string>;
for (const k of kinds.values()) for (const label of [k.label, k.pluralLabel]) messages[label] ??= label;
fs.writeFileSync(bundle, `${JSON.stringify(messages, null, 2)}\n`);
console.log(`${path.relative(repo, bundle)}: ${Object.keys(messages).length} strings`);
