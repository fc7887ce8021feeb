/**
 * Injected faults (sandbox only): answer the next `count` requests whose path
 * starts with `path` with `status` (e.g. 429 with Retry-After, or 503), so
 * clients' retry logic can be tested against a real server.
 */
import { ErrorDetail, HttpError, Reply } from './http';

export interface FaultRule {
  path: string;
  status: number;
  count: number;
  retryAfter?: number;
}

export class Faults {
  private rules: FaultRule[] = [];

  /** Validates and adds a rule from a request body. */
  add(body: unknown): FaultRule {
    const b = (body ?? {}) as Record<string, unknown>;
    const errors: ErrorDetail[] = [];
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new HttpError(400, 'The body must be an object {path, status, count, retryAfter?}');
    }
    if (typeof b.path !== 'string' || !b.path.startsWith('/')) errors.push({ pointer: '/path', message: 'must be a path starting with /' });
    if (!Number.isInteger(b.status) || (b.status as number) < 400 || (b.status as number) > 599) {
      errors.push({ pointer: '/status', message: 'must be an integer from 400 to 599' });
    }
    if (!Number.isInteger(b.count) || (b.count as number) < 1) errors.push({ pointer: '/count', message: 'must be an integer of at least 1' });
    if (b.retryAfter !== undefined && (typeof b.retryAfter !== 'number' || b.retryAfter < 0)) {
      errors.push({ pointer: '/retryAfter', message: 'must be a number of seconds, 0 or more' });
    }
    if (errors.length) throw new HttpError(400, 'Invalid fault rule', errors);
    const rule: FaultRule = { path: b.path as string, status: b.status as number, count: b.count as number };
    if (b.retryAfter !== undefined) rule.retryAfter = b.retryAfter as number;
    this.rules.push(rule);
    return rule;
  }

  list(): FaultRule[] {
    return this.rules.map((r) => ({ ...r }));
  }

  clear(): void {
    this.rules = [];
  }

  /** The fault reply for this path, consuming one count of the first matching rule. */
  take(pathname: string): Reply | undefined {
    const rule = this.rules.find((r) => pathname.startsWith(r.path));
    if (!rule) return undefined;
    rule.count -= 1;
    if (rule.count <= 0) this.rules = this.rules.filter((r) => r !== rule);
    const headers: Record<string, string> = {};
    if (rule.retryAfter !== undefined) headers['Retry-After'] = String(Math.ceil(rule.retryAfter));
    return { status: rule.status, headers, body: { Message: `Injected fault: status ${rule.status} (sandbox fault rule for ${rule.path})` } };
  }
}
