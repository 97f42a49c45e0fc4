/**
 * The sender is a user-chosen name shown in a header and a body: control characters (CR/LF could
 * fold headers, others confuse clients) become spaces, and overly long names are cut. Nothing
 * printable left: `fallback` (the e-mail's word for "someone").
 */
export function displayName(sender: string, max = 100, fallback = 'Someone'): string {
  // eslint-disable-next-line no-control-regex
  const clean = sender.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean || fallback;
}
