/**
 * The text of a people file from its bytes, never with a replacement character: UTF-8 (with or
 * without a BOM) and UTF-16 with a BOM are read as they are; anything else that is not valid UTF-8
 * (a Latin-1 export from a spreadsheet, say) is read only in an encoding the user chose, else
 * refused. A U+FFFD already in the text (lost in an earlier conversion) is refused too: the service
 * would store it as it is. Plain TypeScript.
 */
import { PeopleFileError } from './rows';
import { l10n } from '../l10n';

/** Encodings offered when a file is not UTF-8 (WHATWG names, which TextDecoder takes). */
export const otherEncodings: ReadonlyArray<{ id: string; label: string }> = [
  { id: 'windows-1252', label: 'Western (Windows-1252, ISO 8859-1)' },
  { id: 'iso-8859-15', label: 'Western with euro (ISO 8859-15)' },
  { id: 'windows-1250', label: 'Central European (Windows-1250)' },
  { id: 'windows-1251', label: 'Cyrillic (Windows-1251)' },
  { id: 'windows-1253', label: 'Greek (Windows-1253)' },
  { id: 'windows-1254', label: 'Turkish (Windows-1254)' },
];

/** The file is not UTF-8 and no encoding was chosen: where the first byte that is not UTF-8 sits. */
export class NotUtf8Error extends PeopleFileError {
  constructor(
    readonly line: number,
    readonly byte: number,
  ) {
    super(l10n.t("not UTF-8 (byte 0x{0}): choose the file's encoding, or save it as UTF-8 and try again", byte.toString(16).toUpperCase()), line);
    this.name = 'NotUtf8Error';
  }
}

/** Why the bytes cannot be read as UTF-8 (the first bad byte and its line), or undefined when they can. */
export function notUtf8(bytes: Uint8Array): NotUtf8Error | undefined {
  if (bomOf(bytes)) return undefined;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return undefined;
  } catch {
    const at = firstBadByte(bytes);
    let line = 1;
    for (let i = 0; i < at; i++) if (bytes[i] === 10) line++;
    return new NotUtf8Error(line, bytes[at]);
  }
}

function bomOf(bytes: Uint8Array): 'utf-8' | 'utf-16le' | 'utf-16be' | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return undefined;
}

/**
 * The text of the bytes: by their BOM, else UTF-8, else in `encoding` (one the user chose). Throws
 * NotUtf8Error when the bytes are not UTF-8 and no encoding was chosen, and a PeopleFileError when the
 * text holds U+FFFD.
 */
export function decodePeople(bytes: Uint8Array, encoding?: string): string {
  const bom = bomOf(bytes);
  let text: string;
  if (bom)
    text = new TextDecoder(bom).decode(bytes); // the decoder drops the BOM
  else {
    const problem = notUtf8(bytes);
    if (problem && !encoding) throw problem;
    text = new TextDecoder(problem ? encoding : 'utf-8').decode(bytes);
  }
  const lost = text.indexOf('\uFFFD');
  if (lost >= 0) {
    const line = text.slice(0, lost).split('\n').length;
    throw new PeopleFileError(
      l10n.t('holds the replacement character {0} (U+FFFD), where text was lost before: put the right letters back and try again', '\uFFFD'),
      line,
    );
  }
  return text;
}

/** Where decoding as UTF-8 fails: the start of the first invalid sequence. */
function firstBadByte(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i];
    const n = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (n < 0) return i;
    for (let k = 1; k <= n; k++) if (((bytes[i + k] ?? 0) & 0xc0) !== 0x80) return i;
    i += n + 1;
  }
  return 0;
}
