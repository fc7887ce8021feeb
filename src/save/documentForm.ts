/**
 * The text of an object document. ConcurrencyVersion is kept out of the text:
 * the editor remembers the version an edit is based on, so that a save leaves
 * the user's text as it is (no reload, no extra undo step) while the server's
 * version moves on.
 */
import type { BaseInfo } from '../model/types';
import { prettyJson } from '../model/saveChecks';

export function documentText(object: BaseInfo): string {
  const { ConcurrencyVersion: _version, ...rest } = object;
  return prettyJson(rest);
}
