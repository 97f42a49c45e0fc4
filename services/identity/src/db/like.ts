/** `value` as a LIKE pattern matching any text that contains it (its `%`, `_` and `\` taken literally). */
export const likePattern = (value: string): string => `%${value.replace(/[\\%_]/g, '\\$&')}%`;
