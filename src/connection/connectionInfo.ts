/** What the user defined for a connection; kept in global state, never in settings. */
import { l10n } from '../l10n';
export interface ConnectionInfo {
  id: string;
  label: string;
  /** Origin plus optional path prefix, no trailing slash. */
  baseUrl: string;
  /** Root folder; when absent, the instance from `GET /api`. */
  rootFolderKey?: string;
  /** Remembered for the next sign-in prompt; never the password. */
  user?: string;
  instance?: string;
  /** The embedded local sandbox: started on demand, its URL may change. */
  sandbox?: boolean;
  /** A live system: every write asks first, and the UI shows it in its own colour. */
  production?: boolean;
}

/**
 * Why a name cannot be a connection's: empty, or another connection's already (its log lines and
 * messages would not say which is meant). Compared trimmed and in any case; `id` is the one renamed.
 */
export function connectionNameProblem(name: string, connections: readonly ConnectionInfo[], id?: string): string | undefined {
  const wanted = name.trim().toLowerCase();
  if (!wanted) return l10n.t('Enter a name');
  const other = connections.find((c) => c.id !== id && c.label.trim().toLowerCase() === wanted);
  return other ? l10n.t('"{0}" is the name of another connection: choose another', other.label) : undefined;
}

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export function isLoopback(url: URL): boolean {
  return loopbackHosts.has(url.hostname) || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);
}

/** Checks a base URL typed by the user; returns a reason when it is unusable. */
export function checkBaseUrl(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return l10n.t('Enter a full URL such as https://api.example.com');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return l10n.t('The URL must start with https:// or http://');
  if (url.username || url.password) return l10n.t('Do not put credentials in the URL; sign in after adding the connection');
  if (url.search || url.hash) return l10n.t('The URL must not have a query or fragment');
  return undefined;
}

export function normalizeBaseUrl(text: string): string {
  const url = new URL(text.trim());
  return (url.origin + url.pathname).replace(/\/+$/, '');
}

/** Plain http to another host exposes the token on the network: it needs a yes. */
export function needsPlainHttpConfirmation(baseUrl: string): boolean {
  const url = new URL(baseUrl);
  return url.protocol === 'http:' && !isLoopback(url);
}

export function originOf(baseUrl: string): string {
  return new URL(baseUrl).origin;
}
