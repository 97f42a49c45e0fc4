import { Parser } from 'htmlparser2';

/** One control of a form: an `input` (its `type`, "text" when absent), a `textarea` or a `button`. */
export interface FormField {
  name: string;
  value: string;
  type: string;
}

/** A form as a browser reads it; attribute values come entity-decoded, as the DOM holds them. */
export interface ParsedForm {
  action: string;
  /** Lower-cased; "get" when the form does not say. */
  method: string;
  /** Every named input and textarea, in document order (buttons are in `buttons`). */
  fields: FormField[];
  /** The hidden inputs by name: what a submit carries besides what the user types. */
  hidden: Record<string, string>;
  /** The names of the form's buttons. */
  buttons: string[];
}

/**
 * The forms of a page, read by a real HTML parser: attributes in any order, with any quoting,
 * entities decoded. A control outside any form is ignored, as a browser would not submit it.
 */
export function parseForms(html: string): ParsedForm[] {
  const forms: ParsedForm[] = [];
  let form: ParsedForm | undefined;
  let textarea: FormField | undefined;
  const parser = new Parser(
    {
      onopentag(tag, attrs) {
        if (tag === 'form') {
          form = { action: attrs['action'] ?? '', method: (attrs['method'] ?? 'get').toLowerCase(), fields: [], hidden: {}, buttons: [] };
          forms.push(form);
          return;
        }
        const name = attrs['name'];
        if (!form || name === undefined) return;
        if (tag === 'input') {
          const field = { name, value: attrs['value'] ?? '', type: (attrs['type'] ?? 'text').toLowerCase() };
          form.fields.push(field);
          if (field.type === 'hidden') form.hidden[name] = field.value;
        } else if (tag === 'textarea') {
          textarea = { name, value: '', type: 'textarea' };
          form.fields.push(textarea);
        } else if (tag === 'button') {
          form.buttons.push(name);
        }
      },
      ontext(text) {
        if (textarea) textarea.value += text;
      },
      onclosetag(tag) {
        // A browser drops the newline that directly follows <textarea>.
        if (tag === 'textarea' && textarea) {
          textarea.value = decodeRcdata(textarea.value.replace(/^\r?\n/, ''));
          textarea = undefined;
        } else if (tag === 'form') form = undefined;
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return forms;
}

/**
 * A textarea's content with its character references decoded, as HTML does for it (htmlparser2
 * hands it over raw). In that content `<` starts no tag, so it is escaped before the text is read
 * again as ordinary HTML text, where the parser does decode references.
 */
function decodeRcdata(raw: string): string {
  let text = '';
  const parser = new Parser({ ontext: (data) => (text += data) }, { decodeEntities: true });
  parser.end(raw.replace(/</g, '&lt;'));
  return text;
}
