/**
 * Masks secrets (the token, a password) in text a server sent back, in every
 * form an echo can take: exact, upper- or lowercased, percent-encoded, split
 * by spaces or punctuation, cut short, or base64-encoded inside a longer value.
 *
 * Text is compared lowercased, percent-escapes decoded, punctuation and white
 * space the secret lacks skipped as separators: any run of at least `window`
 * characters that also appears in the secret is a piece of it. Base64 runs are
 * decoded and masked whole when what they hold carries such a piece.
 */

/** Shortest piece of a secret that counts as a leak; shorter secrets are masked only whole. */
const window = 8;
/** Secrets shorter than this are not masked at all: masking `t2` would garble every message. */
const shortest = 4;

/**
 * `text` lowercased as the secret's characters (`keep`), each with the range of `text` it came from;
 * a letter or digit the secret lacks becomes a break, other characters are skipped.
 */
function skeleton(text: string, keep: Set<string>): { chars: string; from: number[]; to: number[] } {
  let chars = '';
  const from: number[] = [];
  const to: number[] = [];
  for (let i = 0; i < text.length; i++) {
    let c = text[i];
    let end = i + 1;
    if (c === '%' && /^[0-9a-f]{2}$/i.test(text.slice(i + 1, i + 3))) {
      c = String.fromCharCode(parseInt(text.slice(i + 1, i + 3), 16));
      end = i + 3;
    }
    const lower = c.toLowerCase();
    const kept = keep.has(lower) ? lower : /[a-z0-9]/.test(lower) ? '\u0000' : undefined;
    if (kept) {
      chars += kept;
      from.push(i);
      to.push(end);
    }
    i = end - 1;
  }
  return { chars, from, to };
}

interface Secret {
  /** Lowercased, without white space. */
  s: string;
  /** Its characters. */
  keep: Set<string>;
  /** Shortest piece that counts. */
  n: number;
}

/** Ranges of `text` holding a piece of the secret at least `n` characters long. */
function pieces(text: string, { s, keep, n }: Secret): Array<[number, number]> {
  const t = skeleton(text, keep);
  const ranges: Array<[number, number]> = [];
  for (let j = 0; j + n <= s.length; j++) {
    const gram = s.slice(j, j + n);
    for (let at = t.chars.indexOf(gram); at >= 0; at = t.chars.indexOf(gram, at + 1)) {
      ranges.push([t.from[at], t.to[at + n - 1]]);
    }
  }
  return ranges;
}

/** Runs that may be base64 (or base64url) of something holding a secret. */
const base64Run = /[A-Za-z0-9+/_-]{12,}={0,2}/g;

function decodedHolds(run: string, secret: Secret): boolean {
  const text = Buffer.from(run.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('latin1');
  return pieces(text, secret).length > 0;
}

/** A function that replaces every piece of the given secrets by `***`. */
export function masker(secrets: Array<string | undefined>): (text: string) => string {
  const known: Secret[] = secrets
    .map((secret) => (secret ?? '').toLowerCase().replace(/\s+/g, ''))
    .filter((s) => s.length >= shortest)
    .map((s) => ({ s, keep: new Set(s), n: Math.min(window, s.length) }));
  if (!known.length) return (text) => text;
  return (text) => {
    const ranges: Array<[number, number]> = [];
    for (const secret of known) {
      ranges.push(...pieces(text, secret));
      for (const m of text.matchAll(base64Run)) if (decodedHolds(m[0], secret)) ranges.push([m.index, m.index + m[0].length]);
    }
    if (!ranges.length) return text;
    ranges.sort((a, b) => a[0] - b[0]);
    let out = '';
    let pos = 0;
    for (const [start, end] of ranges) {
      if (end <= pos) continue;
      if (start >= pos) out += text.slice(pos, start) + '***';
      pos = end;
    }
    return out + text.slice(pos);
  };
}
