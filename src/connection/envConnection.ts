/**
 * A connection handed over by the process environment (the run script and the
 * integration harness start a sandbox and pass its URL and token). Only
 * loopback URLs are accepted, so the environment cannot send a token elsewhere.
 */
import { isLoopback, normalizeBaseUrl } from './connectionInfo';
import type { ConnectionManager } from './connectionManager';
import { log } from '../log';

export const envConnectionId = 'env-sandbox';

export async function connectFromEnvironment(connections: ConnectionManager, env = process.env): Promise<void> {
  const url = env.OMS_SANDBOX_URL,
    token = env.OMS_SANDBOX_TOKEN;
  if (!url || !token) return;
  if (!isLoopback(new URL(url))) {
    log().warn('OMS_SANDBOX_URL ignored: only a loopback address is accepted from the environment');
    return;
  }
  await connections.add(
    { id: envConnectionId, label: 'Sandbox', baseUrl: normalizeBaseUrl(url), rootFolderKey: env.OMS_SANDBOX_INSTANCE || undefined },
    { accessToken: token },
  );
  log().info(`Connected to the sandbox at ${normalizeBaseUrl(url)} from the environment`);
}
