/**
 * Entity tags of answers that can be read again cheaply: a list page and an
 * object. The tag is a hash of the bytes answered, so it changes exactly when
 * the answer does (a version bump, a rename, a note, a page that shifted).
 * A request whose If-None-Match names the tag gets 304 with no body, and its
 * answer is not made when the tag is known without it (a page's, `store/pageCache.ts`).
 */
import type { IncomingMessage } from 'node:http';
import type { Reply } from './replies';

/** The 200 reply `answer()` makes, with the ETag of `digest`; or a 304 without a body when the client already holds that answer. */
export function conditional(req: IncomingMessage, digest: string, answer: () => Reply): Reply {
  const tag = `"${digest}"`;
  if (matches(req.headers['if-none-match'], tag)) return { status: 304, headers: { ETag: tag } };
  const reply = answer();
  return { ...reply, headers: { ...reply.headers, ETag: tag } };
}

/** If-None-Match holds `*` or the tag (weak comparison: a `W/` prefix is ignored). */
function matches(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const candidate = t.trim().replace(/^W\//, '');
    return candidate === '*' || candidate === tag;
  });
}
