const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A UUID in its canonical text form (any version). Checked before a value reaches a `uuid`
 * column, where PostgreSQL would reject anything else with an error instead of "not found".
 */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
