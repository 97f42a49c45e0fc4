/**
 * Keyset paging behind Keycloak's `first`/`max`. The admin API pages by offset, and an OFFSET
 * costs every row before the page; but a client paging through a list asks for `first=0`, then
 * `first=max`, `2*max`, ..., each right after the page before. So each page served remembers
 * where it ended: (the list and its filters, `first` + rows) → the sort key of its last row. The
 * next page's request finds that key and asks for the rows after it, an index range as cheap as
 * the first page, instead of skipping `first` rows. Under concurrent inserts or deletes, a client
 * paging this way sees every row once; OFFSET would show one twice or skip it.
 *
 * A request with no remembered key (another replica served the page before, the key aged out
 * after `ttlMs`, a jump to a far page) falls back to OFFSET, which gives the same rows on a table
 * that did not change meanwhile. At most `capacity` keys are kept, the oldest dropped first.
 */
export class PageBoundaries<K> {
  private readonly keys = new Map<string, { key: K; at: number }>();

  constructor(
    private readonly capacity = 1000,
    private readonly ttlMs = 60_000,
  ) {}

  /** Where the rows of `list` before offset `first` end, if a page ended there lately. */
  after(list: string, first: number): K | undefined {
    const id = `${first}\u0000${list}`;
    const entry = this.keys.get(id);
    if (!entry) return undefined;
    if (Date.now() - entry.at > this.ttlMs) {
      this.keys.delete(id);
      return undefined;
    }
    return entry.key;
  }

  /** A page of `list` starting at `first` ended with `rows` rows, the last sorting at `last`. */
  ended(list: string, first: number, rows: number, last: K | undefined): void {
    if (rows === 0 || last === undefined) return;
    const id = `${first + rows}\u0000${list}`;
    this.keys.delete(id);
    this.keys.set(id, { key: last, at: Date.now() });
    if (this.keys.size > this.capacity) this.keys.delete(this.keys.keys().next().value as string);
  }
}

/** The paging a list call asks for: Keycloak's `first` (an offset) and `max` (negative: all). */
export interface Paging {
  first?: number | undefined;
  max?: number | undefined;
}

/**
 * Runs one page of a list sorted by a unique key: `query(after, offset, limit)` returns the rows
 * after `after` (when a page ended at `first`), else from `offset`; `keyOf` gives a row's sort key.
 * `list` names the list and its filters (equal strings, equal lists).
 */
export async function pageOf<R, K>(
  boundaries: PageBoundaries<K>,
  list: string,
  paging: Paging,
  keyOf: (row: R) => K,
  query: (after: K | undefined, offset: number, limit: number | undefined) => Promise<R[]>,
): Promise<R[]> {
  const first = paging.first ?? 0;
  const limit = paging.max !== undefined && paging.max >= 0 ? paging.max : undefined;
  const after = first > 0 ? boundaries.after(list, first) : undefined;
  const rows = await query(after, after === undefined ? first : 0, limit);
  if (limit !== undefined) boundaries.ended(list, first, rows.length, rows.length > 0 ? keyOf(rows[rows.length - 1] as R) : undefined);
  return rows;
}
