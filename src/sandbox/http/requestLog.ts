/**
 * What the sandbox was asked: requests counted by method and route pattern (for `GET /sandbox/stats`:
 * what an interval or a hidden view costs), and the request log's line. Neither holds a token, a query
 * string or a body: a line names the method, the path, the status and the time taken.
 */

/** Requests that matched no route (a 404 or 405 of the router, a refused Host) are counted under this. */
const noRoute = '(no route)';

export class RequestCounts {
  private total = 0;
  private readonly byRoute = new Map<string, number>();

  count(method: string, route: string | undefined): void {
    this.total++;
    const key = `${method} ${route ?? noRoute}`;
    this.byRoute.set(key, (this.byRoute.get(key) ?? 0) + 1);
  }

  /** `{ total, routes: { "GET /api/f/:folder/inputscanners": 12, … } }`, routes sorted. */
  snapshot(): { total: number; routes: Record<string, number> } {
    return { total: this.total, routes: Object.fromEntries([...this.byRoute].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) };
  }
}

/** One request as the log shows it: `GET /api/f/<key>/inputscanners 200 3ms` (the path without its query, at most 300 characters). */
export function requestLine(method: string, pathname: string, status: number, ms: number): string {
  return `${method} ${pathname.slice(0, 300)} ${status} ${ms}ms`;
}
