/**
 * Text from others (names, file names, file contents, the service's answers, the manifest) as the
 * command line shows it, in a terminal, a CI log or a comment: every character that could hide,
 * reorder or break the text, or drive a terminal (controls and escape sequences, bidi and other
 * invisible format characters, line and paragraph separators, lone surrogates), written out as
 * `<U+XXXX>`, so nothing is dropped and nothing acts.
 */

/** Characters a reader cannot see or that change how the rest is shown (variation selectors are kept: emoji need them). */
const unseen = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]|(?![\uFE00-\uFE0F])\p{Default_Ignorable_Code_Point}/gu;

/** `text` with each unseen character written out as `<U+XXXX>`. */
export function visible(text: string): string {
  return text.replace(unseen, (c) => `<U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}>`);
}
