/**
 * E-mail addresses: one rule, `format: "email"` of the schemas (ajv-formats),
 * used by the editor, the batch add, the invite and the sandbox. This module
 * only says why an address fails it, for validation as the user types.
 * Plain TypeScript.
 */
import { fullFormats } from 'ajv-formats/dist/formats';
import { l10n } from '../l10n';

const emailFormat = fullFormats.email as RegExp;

/** Undefined when `value` is an e-mail address, else why it is not (for validation as the user types). */
export function checkEmail(value: string): string | undefined {
  const v = value.trim();
  if (!v) return l10n.t('Enter an e-mail address');
  if (/\s/.test(v)) return l10n.t('An e-mail address has no spaces');
  const at = v.split('@').length - 1;
  if (at === 0) return l10n.t('An e-mail address needs an @');
  if (at > 1) return l10n.t('An e-mail address has one @');
  if (!emailFormat.test(v)) {
    const domain = v.slice(v.indexOf('@') + 1);
    if (!domain) return l10n.t('Add the domain after the @');
    if (!domain.includes('.') || domain.endsWith('.') || domain.startsWith('.') || domain.includes('..'))
      return l10n.t('"{0}" is not a full domain (e.g. example.com)', domain);
    return l10n.t('"{0}" is not an e-mail address', v);
  }
  return undefined;
}
