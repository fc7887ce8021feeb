/** The items of a list answer: a JSON array, or one inside the wrapper some gateways add; undefined for anything else. */
export function listItems(body: unknown): unknown[] | undefined {
  if (Array.isArray(body)) return body as unknown[];
  for (const key of ['Items', 'items', 'value', 'Results']) {
    const inner = (body as Record<string, unknown> | null)?.[key];
    if (Array.isArray(inner)) return inner as unknown[];
  }
  return undefined;
}
