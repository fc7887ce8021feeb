/**
 * Entity tags of answers that can be read again cheaply: a list page and an
 * object. The tag is a hash of the bytes answered, so it changes exactly when
 * the answer does (a version bump, a rename, a note, a page that shifted).
 * A read whose If-None-Match names the tag gets 304 with no body, and its
 * answer is not made when the tag is known without it (a page's, `store/pageCache.ts`).
 * A write's If-Match and If-None-Match are checked against the tag of its target
 * (RFC 9110 §13.1.1-2): a condition that is false is a 412, and nothing is written.
 */
import type { IncomingMessage } from 'node:http';
import { HttpError, Reply } from './replies';

/** The 200 reply `answer()` makes, with the ETag of `digest`; or a 304 without a body when the client already holds that answer. */
export function conditional(req: IncomingMessage, digest: string, answer: () => Reply): Reply {
  const tag = `"${digest}"`;
  if (names(req.headers['if-none-match'], tag, false)) return { status: 304, headers: { ETag: tag } };
  const reply = answer();
  return { ...reply, headers: { ...reply.headers, ETag: tag } };
}

/** A write's target as it is now: its ETag (none when its answer has no tag), or undefined when it has no current representation. */
export type Current = { etag?: string } | undefined;

/**
 * Refuses a write whose preconditions are false (RFC 9110 §13.2.2: If-Match first, then If-None-Match).
 * If-Match holds when the target exists and (`*` or) a listed tag is its tag by strong comparison;
 * If-None-Match holds when the target does not exist, or (not `*` and) no listed tag is its tag by weak comparison.
 */
export function checkPreconditions(req: IncomingMessage, current: Current): void {
  const ifMatch = req.headers['if-match'];
  if (ifMatch !== undefined && !(current && names(ifMatch, current.etag, true))) {
    throw new HttpError(
      412,
      current
        ? `If-Match ${shown(ifMatch)} does not name the current ETag ${current.etag ?? '(none)'}: read it again; nothing was written`
        : `If-Match ${shown(ifMatch)}: there is nothing here to match; nothing was written`,
    );
  }
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch !== undefined && current && names(ifNoneMatch, current.etag, false)) {
    throw new HttpError(412, `If-None-Match ${shown(ifNoneMatch)}: this already exists (ETag ${current.etag ?? '(none)'}); nothing was written`);
  }
}

/**
 * Whether the header's list holds `*` or `tag`. Strong comparison: both tags strong and the same; weak: the
 * same once a `W/` prefix is dropped. A tag's quoted text may hold commas, so the list is read tag by tag.
 */
function names(header: string | undefined, tag: string | undefined, strong: boolean): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  if (tag === undefined) return false;
  const opaque = tag.replace(/^W\//, '');
  if (strong && opaque !== tag) return false;
  for (const [, weak, text] of header.matchAll(/(W\/)?("[^"]*")/g)) {
    if (text === opaque && !(strong && weak)) return true;
  }
  return false;
}

/** A header's value in a message: bounded, printable. */
function shown(value: string): string {
  const printable = value.replace(/[^\x20-\x7e]/g, '?');
  return printable.length > 100 ? `${printable.slice(0, 100)}…` : printable;
}
