/**
 * Text from others (names, file names, file contents, the service's answers, the manifest) as Markdown
 * that GitHub and GitLab show exactly as it is: a code span, where neither renders HTML, links, autolinks,
 * @mentions or #references, with a fence longer than any run of backticks inside, and every character
 * that could hide, reorder or break the text shown as `<U+XXXX>` (visible.ts).
 */
import { visible } from './visible';

/**
 * `text` as an inline code span; `inTable`: inside a GFM table cell, where a pipe ends the cell unless
 * escaped (`\|`, which GFM unescapes even in a code span). A backslash right before such a pipe gets a
 * zero-width space after it, so that it cannot be read as escaping the escape.
 */
export function codeSpan(text: string, inTable = false): string {
  let body = visible(text);
  if (inTable) body = body.replace(/\\(?=\|)/g, '\\\u200B').replace(/\|/g, '\\|');
  const fence = '`'.repeat((body.match(/`+/g) ?? []).reduce((longest, run) => Math.max(longest, run.length), 0) + 1);
  // CommonMark drops one space at each end when both ends have one: pad when an end is a space or a backtick.
  const pad = /^[ `]|[ `]$/.test(body) && !/^ *$/.test(body) ? ' ' : '';
  return body ? `${fence}${pad}${body}${pad}${fence}` : '` `';
}
