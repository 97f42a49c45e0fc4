/**
 * The one way pages build HTML: the `html` tagged template escapes every interpolation, so a
 * value can never open a tag or leave an attribute. Rules:
 * - a string, number or bigint is escaped (element content and double-quoted attribute values);
 * - an `Html` (the result of `html` itself, or of `raw` for a fragment we wrote) goes in as is;
 * - an array is its items, concatenated (each item follows these rules);
 * - null, undefined and false render nothing, so `${cond && html`...`}` reads naturally.
 * The regular expressions are compiled once, with the module; the escaper's fast path returns the
 * string untouched when it holds nothing to escape.
 */
const builder = Symbol('html builder');

export class Html {
  /** Only `html` and `raw` build one (they alone hold the key), so an `Html` holds trusted markup. */
  constructor(
    key: symbol,
    readonly text: string,
  ) {
    if (key !== builder) throw new TypeError('build markup with html`...` or raw(...)');
  }

  toString(): string {
    return this.text;
  }
}

export type Interpolation = Html | string | number | bigint | boolean | null | undefined | readonly Interpolation[];

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const special = /[&<>"']/;
const specials = /[&<>"']/g;
const entity = (c: string) => entities[c] ?? c;

/** Escapes a value for HTML element content and quoted attribute values (null and undefined: empty). */
export function escapeHtml(value: string | number | bigint | boolean | null | undefined): string {
  const text = String(value ?? '');
  return special.test(text) ? text.replace(specials, entity) : text;
}

// Array.isArray guards with any[], which never removes a readonly array type from a union.
const isList = (value: Interpolation): value is readonly Interpolation[] => Array.isArray(value);

function render(value: Interpolation): string {
  if (value instanceof Html) return value.text;
  if (value === null || value === undefined || value === false) return '';
  if (isList(value)) {
    let out = '';
    for (const item of value) out += render(item);
    return out;
  }
  return escapeHtml(value);
}

/** html`<p>${untrusted}</p>`: markup with every interpolation escaped (see the rules above). */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): Html {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (strings[i + 1] ?? '');
  return new Html(builder, out);
}

/** Markup we wrote ourselves (a constant stylesheet, a script, a form handed to us by oidc-provider): never user input. */
export function raw(trusted: string): Html {
  return new Html(builder, trusted);
}
