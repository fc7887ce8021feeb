/**
 * Entity tags of answers that can be read again cheaply: a list page and an
 * object. The tag is a hash of the bytes answered, so it changes exactly when
 * the answer does (a version bump, a rename, a note, a page that shifted).
 * A request whose If-None-Match names the tag gets 304 with no body.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Reply } from './replies';

/** Tags of cached page buffers (the store keeps a page's bytes until the group changes). */
const tags = new WeakMap<Buffer, string>();

function etagOf(content: Buffer | string): string {
  if (typeof content !== 'string') {
    const known = tags.get(content);
    if (known) return known;
  }
  const tag = `"${createHash('sha1').update(content).digest('base64url').slice(0, 22)}"`;
  if (typeof content !== 'string') tags.set(content, tag);
  return tag;
}

/** The reply with its ETag, or a 304 without a body when the client already holds that answer. */
export function conditional(req: IncomingMessage, reply: Reply & { bytes?: Buffer; text?: string }): Reply {
  const content = reply.bytes ?? reply.text;
  if (content === undefined || reply.status !== 200) return reply;
  const tag = etagOf(content);
  const headers = { ...reply.headers, ETag: tag };
  if (matches(req.headers['if-none-match'], tag)) return { status: 304, headers };
  return { ...reply, headers };
}

/** If-None-Match holds `*` or the tag (weak comparison: a `W/` prefix is ignored). */
function matches(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const candidate = t.trim().replace(/^W\//, '');
    return candidate === '*' || candidate === tag;
  });
}
