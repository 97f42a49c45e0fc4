/**
 * One field of a form parsed by express.urlencoded: its value when it was sent once, as text;
 * undefined when it is absent, repeated (an array) or the request carried no form at all.
 */
export function formField(req: { body?: unknown }, name: string): string | undefined {
  const body = req.body;
  if (typeof body !== 'object' || body === null || !Object.hasOwn(body, name)) return undefined;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}
