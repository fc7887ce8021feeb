/**
 * Injected faults (sandbox only): answer the next `count` requests whose path
 * starts with `path` (of `method`, when given) with `status` (e.g. 429 with Retry-After, 503, or a 307 redirect to `location`), so
 * clients' retry logic can be tested against a real server; or hold their
 * answers back `delayMs` (a slow service: the request is handled, its answer
 * comes late), so a test can act while a run of many requests is under way.
 */
import type { Reply } from '../http/replies';
import { checkInput, faultRuleSchema } from './inputs';

interface FaultRule {
  path: string;
  /** Only requests of this method (a save's PUT, not the reads beside it). */
  method?: string;
  status?: number;
  count: number;
  retryAfter?: number;
  delayMs?: number;
  /** Sent in Location: a 3xx status with one is a redirect. */
  location?: string;
}

/** What a faulted request gets: the fault's reply instead of its own (when the rule has a status), after `delayMs` (when it has one). */
interface Fault {
  reply?: Reply;
  delayMs?: number;
}

export class Faults {
  private rules: FaultRule[] = [];

  /** Validates and adds a rule from a request body. */
  add(body: unknown): FaultRule {
    checkInput(
      faultRuleSchema,
      body,
      'Invalid fault rule: the body must be an object {path, method?, count, status?, retryAfter?, delayMs?, location?} with a status or a delay',
    );
    const { path, method, status, count, retryAfter, delayMs, location } = body as FaultRule;
    const rule: FaultRule = {
      path,
      ...(method === undefined ? {} : { method }),
      ...(status === undefined ? {} : { status }),
      count,
      ...(retryAfter === undefined ? {} : { retryAfter }),
      ...(delayMs === undefined ? {} : { delayMs }),
      ...(location === undefined ? {} : { location }),
    };
    this.rules.push(rule);
    return rule;
  }

  list(): FaultRule[] {
    return this.rules.map((r) => ({ ...r }));
  }

  clear(): void {
    this.rules = [];
  }

  /** The fault for this request, consuming one count of the first matching rule. */
  take(method: string, pathname: string): Fault | undefined {
    const rule = this.rules.find((r) => pathname.startsWith(r.path) && (r.method === undefined || r.method === method));
    if (!rule) return undefined;
    rule.count -= 1;
    if (rule.count <= 0) this.rules = this.rules.filter((r) => r !== rule);
    const fault: Fault = rule.delayMs === undefined ? {} : { delayMs: rule.delayMs };
    if (rule.status === undefined) return fault;
    const headers: Record<string, string> = {};
    if (rule.retryAfter !== undefined) headers['Retry-After'] = String(Math.ceil(rule.retryAfter));
    if (rule.location !== undefined) headers.Location = rule.location;
    const body = { Message: `Injected fault: status ${rule.status} (sandbox fault rule for ${rule.path})` };
    return { ...fault, reply: { status: rule.status, headers, body } };
  }
}
