/**
 * Injected faults (sandbox only): answer the next `count` requests whose path
 * starts with `path` with `status` (e.g. 429 with Retry-After, or 503), so
 * clients' retry logic can be tested against a real server.
 */
import type { Reply } from '../http/replies';
import { checkInput, faultRuleSchema } from './inputs';

interface FaultRule {
  path: string;
  status: number;
  count: number;
  retryAfter?: number;
}

export class Faults {
  private rules: FaultRule[] = [];

  /** Validates and adds a rule from a request body. */
  add(body: unknown): FaultRule {
    checkInput(faultRuleSchema, body, 'Invalid fault rule: the body must be an object {path, status, count, retryAfter?}');
    const { path, status, count, retryAfter } = body as FaultRule;
    const rule: FaultRule = retryAfter === undefined ? { path, status, count } : { path, status, count, retryAfter };
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
