/** A client of the sandbox whose list page reads are recorded, to hold how many requests a listing makes. */
import { createHttp } from '../../../src/api/http';
import { OmsClient } from '../../../src/api/client';

/** A new client of `sb` and the numbers of the pages it asks for, in order. */
export function pageCountingClient(sb: { url: string; token: string }): { client: OmsClient; asked: number[] } {
  const client = new OmsClient(createHttp({ baseUrl: sb.url, token: () => sb.token }));
  const asked: number[] = [];
  const listBytes = client.listBytes.bind(client);
  client.listBytes = (k, f, page, size, signal) => {
    asked.push(page);
    return listBytes(k, f, page, size, signal);
  };
  return { client, asked };
}
