import type { Knex } from 'knex';

/**
 * A list's order as the admin API offers it: one of the list's sort columns, then a unique tie
 * column, both in one direction. Rules:
 * - every sort column is an expression with a btree index on `(expression, tie)` (migration
 *   20270502000000_sort_indexes); the tie alone is the list's unique key, also indexed. A page is
 *   then one index range read forwards or backwards, however deep in the list;
 * - the expressions never yield NULL (a missing name or address sorts as the empty text), so a
 *   row comparison `(expression, tie) > (value, tie value)` finds where a page ended;
 * - where a page ended is the last row's `(expression::text, tie)`, cast back by `type`.
 */
export type SortDirection = 'asc' | 'desc';

export interface SortColumn {
  expr: string;
  type: 'text' | 'boolean' | 'timestamptz';
}

/** Where a page of a sorted list ended. */
export interface SortKey {
  value: string;
  tie: string;
}

/** The expression's value as text, selected beside the row for its key. */
export const SORT_VALUE = 'sort_value';

/**
 * Orders `q` by `column` (none: by the tie alone) and `tie` in `direction`, after `after` when a
 * page ended there. Rows carry `sort_value` when there is a column.
 */
export function sortedAfter(q: Knex.QueryBuilder, column: SortColumn | undefined, tie: string, direction: SortDirection, after: SortKey | undefined): void {
  const op = direction === 'asc' ? '>' : '<';
  if (column) {
    q.select(q.client.raw(`(${column.expr})::text AS ${SORT_VALUE}`)).orderByRaw(`${column.expr} ${direction}`);
    if (after) q.whereRaw(`(${column.expr}, ${tie}) ${op} (?::${column.type}, ?)`, [after.value, after.tie]);
  } else if (after) {
    q.where(tie, op, after.tie);
  }
  q.orderBy(tie, direction);
}

/** A row's key in a list sorted by `column` and the tie value `tie`. */
export const keyOf = (row: Record<string, unknown>, column: SortColumn | undefined, tie: string): SortKey => ({
  value: column ? String(row[SORT_VALUE]) : '',
  tie,
});
