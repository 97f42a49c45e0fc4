import { createHash } from 'node:crypto';
import { stringify } from 'yaml';

/**
 * A renderer for the subset of Helm's template language that infra/helm/hush uses, so the chart
 * can be rendered and checked where no helm binary exists. It is not helm: it implements Go's
 * text/template actions {{ }} with trim markers {{- -}}, comments, pipelines, variables ($x :=,
 * $x =, $, range's $i, $v), if / else if / else, with / else, range / else over lists and maps
 * (maps in key order, as Go does), define, template and include; Helm's functions listed in
 * FUNCTIONS below, with Helm's meanings; `lookup`, answered from the objects the caller says the
 * cluster holds (none, as `helm template` sees it, unless told); and a call of a function the data
 * holds (`.Files.Get "path"`). Anything else (another function, another method call,
 * .Capabilities, tpl) is an error here rather than a guess, so the chart cannot drift into
 * constructs this renderer would get wrong. Like Helm (and unlike Go's default), a field of a
 * missing value is an error, and a missing map key prints as an empty string. One difference on
 * the safe side: `and` and `or` evaluate all their arguments (Go stops at the deciding one), so a
 * template that only works through short-circuiting fails here rather than passing.
 */

/* eslint-disable @typescript-eslint/no-explicit-any -- template data is untyped YAML */
type Value = any;

type Token =
  | { t: 'str'; v: string }
  | { t: 'num'; v: number }
  | { t: 'bool'; v: boolean }
  | { t: 'nil' }
  | { t: 'field'; path: string[]; spaced: boolean } // .A.B (path [] is `.`); spaced: after white space
  | { t: 'var'; name: string; path: string[] } // $x.A
  | { t: 'ident'; v: string }
  | { t: 'op'; v: '(' | ')' | '|' | ':=' | '=' | ',' };

type Operand =
  | { k: 'lit'; v: Value }
  | { k: 'field'; path: string[] }
  | { k: 'var'; name: string; path: string[] }
  | { k: 'ident'; name: string }
  | { k: 'pipe'; pipe: Pipeline; path: string[] };
interface Command {
  args: Operand[];
}
interface Pipeline {
  decl: string[];
  assign: boolean; // `=` to an existing variable rather than `:=`
  cmds: Command[];
}
type Node =
  | { k: 'text'; v: string }
  | { k: 'action'; pipe: Pipeline; where: string }
  | { k: 'if' | 'with'; pipe: Pipeline; body: Node[]; orElse: Node[]; where: string }
  | { k: 'range'; pipe: Pipeline; body: Node[]; orElse: Node[]; where: string }
  | { k: 'template'; name: string; pipe: Pipeline | undefined; where: string };

export class TemplateError extends Error {}

// ---- lexing: text and actions ---------------------------------------------------------------

interface Piece {
  text?: string;
  action?: string;
  where: string;
}

function split(source: string, file: string): Piece[] {
  const pieces: Piece[] = [];
  let i = 0;
  let trimNext = false;
  const lineAt = (pos: number) => `${file}:${source.slice(0, pos).split('\n').length}`;
  while (i < source.length) {
    const open = source.indexOf('{{', i);
    let text = source.slice(i, open === -1 ? undefined : open);
    if (trimNext) text = text.replace(/^\s+/, '');
    trimNext = false;
    if (open === -1) {
      pieces.push({ text, where: lineAt(i) });
      break;
    }
    let body: string;
    let close: number;
    if (source.startsWith('{{/*', open) || source.startsWith('{{- /*', open)) {
      const end = source.indexOf('*/', open);
      close = source.indexOf('}}', end);
      if (end === -1 || close === -1) throw new TemplateError(`${lineAt(open)}: unclosed comment`);
      body = '';
    } else {
      close = findClose(source, open + 2);
      if (close === -1) throw new TemplateError(`${lineAt(open)}: unclosed action`);
      body = source.slice(open + 2, close);
    }
    const raw = source.slice(open + 2, close);
    if (/^-\s/.test(raw)) text = text.replace(/\s+$/, '');
    if (/\s-$/.test(raw)) trimNext = true;
    pieces.push({ text, where: lineAt(i) });
    const action = body.replace(/^-\s/, '').replace(/\s-$/, '').trim();
    if (action) pieces.push({ action, where: lineAt(open) });
    i = close + 2;
  }
  return pieces.filter((p) => p.action !== undefined || p.text);
}

/** The `}}` closing an action, skipping quoted strings. */
function findClose(s: string, from: number): number {
  for (let i = from; i < s.length; i++) {
    const c = s[i];
    if (c === '"') {
      for (i++; i < s.length && s[i] !== '"'; i++) if (s[i] === '\\') i++;
    } else if (c === '`') {
      i = s.indexOf('`', i + 1);
      if (i === -1) return -1;
    } else if (c === '}' && s[i + 1] === '}') return i;
  }
  return -1;
}

function tokenize(action: string, where: string): Token[] {
  const tokens: Token[] = [];
  const re = /\s*(?:("(?:[^"\\]|\\.)*")|`([^`]*)`|(-?\d+(?:\.\d+)?)|(:=|[()|=,])|(\$[A-Za-z0-9_]*)((?:\.[A-Za-z0-9_]+)*)|((?:\.[A-Za-z0-9_]+)+|\.)|([A-Za-z_][A-Za-z0-9_]*))/y;
  let m: RegExpExecArray | null;
  let pos = 0;
  while (pos < action.length) {
    re.lastIndex = pos;
    m = re.exec(action);
    if (!m || m[0].length === 0) {
      if (/^\s*$/.test(action.slice(pos))) break;
      throw new TemplateError(`${where}: cannot read "${action.slice(pos)}" in {{ ${action} }}`);
    }
    pos = re.lastIndex;
    const path = (s: string | undefined) => (s ? s.split('.').filter(Boolean) : []);
    if (m[1] !== undefined) tokens.push({ t: 'str', v: JSON.parse(m[1]) as string });
    else if (m[2] !== undefined) tokens.push({ t: 'str', v: m[2] });
    else if (m[3] !== undefined) tokens.push({ t: 'num', v: Number(m[3]) });
    else if (m[4] !== undefined) tokens.push({ t: 'op', v: m[4] as '(' });
    else if (m[5] !== undefined) tokens.push({ t: 'var', name: m[5], path: path(m[6]) });
    else if (m[7] !== undefined) tokens.push({ t: 'field', path: path(m[7]), spaced: /^\s/.test(m[0]) });
    else if (m[8] === 'true' || m[8] === 'false') tokens.push({ t: 'bool', v: m[8] === 'true' });
    else if (m[8] === 'nil') tokens.push({ t: 'nil' });
    else if (m[8] !== undefined) tokens.push({ t: 'ident', v: m[8] });
  }
  return tokens;
}

// ---- parsing ----------------------------------------------------------------------------------

class Parser {
  private i = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly where: string,
  ) {}

  pipeline(): Pipeline {
    const decl: string[] = [];
    let assign = false;
    // `$x :=`, `$x =`, `$i, $v :=`: variables, commas, then the operator.
    let j = this.i;
    const names: string[] = [];
    for (;;) {
      const v = this.tokens[j];
      const next = this.tokens[j + 1];
      if (v?.t !== 'var' || v.path.length || next?.t !== 'op') break;
      names.push(v.name);
      j += 2;
      if (next.v === ',') continue;
      if (next.v === ':=' || next.v === '=') {
        decl.push(...names);
        assign = next.v === '=';
        this.i = j;
      }
      break;
    }
    const cmds: Command[] = [this.command()];
    while (this.peek()?.t === 'op' && (this.peek() as { v: string }).v === '|') {
      this.i++;
      cmds.push(this.command());
    }
    return { decl, assign, cmds };
  }

  private command(): Command {
    const args: Operand[] = [];
    for (;;) {
      const tok = this.peek();
      if (!tok || (tok.t === 'op' && (tok.v === '|' || tok.v === ')'))) break;
      args.push(this.operand());
    }
    if (!args.length) throw new TemplateError(`${this.where}: empty command`);
    return { args };
  }

  private operand(): Operand {
    const tok = this.tokens[this.i++];
    switch (tok?.t) {
      case 'str':
      case 'num':
      case 'bool':
        return { k: 'lit', v: tok.v };
      case 'nil':
        return { k: 'lit', v: null };
      case 'field':
        return { k: 'field', path: tok.path };
      case 'var':
        return { k: 'var', name: tok.name, path: tok.path };
      case 'ident':
        return { k: 'ident', name: tok.v };
      case 'op':
        if (tok.v === '(') {
          const pipe = this.pipeline();
          const close = this.tokens[this.i++];
          if (close?.t !== 'op' || close.v !== ')') throw new TemplateError(`${this.where}: missing )`);
          // (expr).Field, written without a space (with one, .Field is the next argument)
          const after = this.peek();
          if (after?.t === 'field' && after.path.length && !after.spaced) {
            this.i++;
            return { k: 'pipe', pipe, path: after.path };
          }
          return { k: 'pipe', pipe, path: [] };
        }
    }
    throw new TemplateError(`${this.where}: unexpected ${JSON.stringify(tok)}`);
  }

  peek(): Token | undefined {
    return this.tokens[this.i];
  }
  done(): boolean {
    return this.i >= this.tokens.length;
  }
}

function parsePipeline(action: string, where: string): Pipeline {
  const p = new Parser(tokenize(action, where), where);
  const pipe = p.pipeline();
  if (!p.done()) throw new TemplateError(`${where}: unexpected ${JSON.stringify(p.peek())} in {{ ${action} }}`);
  return pipe;
}

/** Parses one file into its top-level nodes, adding its `define`s to `defines`. */
export function parseTemplate(source: string, file: string, defines: Map<string, Node[]>): Node[] {
  const pieces = split(source, file);
  let i = 0;
  // Returns the nodes up to the closing keyword, and that keyword's action.
  const block = (inside: string | undefined): { nodes: Node[]; closer: Piece | undefined } => {
    const nodes: Node[] = [];
    while (i < pieces.length) {
      const piece = pieces[i++] as Piece;
      if (piece.action === undefined) {
        nodes.push({ k: 'text', v: piece.text ?? '' });
        continue;
      }
      const a = piece.action;
      const word = /^([a-z]+)\b\s*(.*)$/s.exec(a);
      const kw = word?.[1] ?? '';
      const rest = word?.[2] ?? '';
      if (kw === 'end' || kw === 'else') {
        if (!inside) throw new TemplateError(`${piece.where}: {{ ${a} }} outside a block`);
        return { nodes, closer: piece };
      }
      if (kw === 'if' || kw === 'with' || kw === 'range') {
        nodes.push(control(kw, rest, piece.where));
      } else if (kw === 'define') {
        const name = JSON.parse(rest.trim()) as string;
        const { nodes: body, closer } = block('define');
        if (!closer || closer.action !== 'end') throw new TemplateError(`${piece.where}: define "${name}" without end`);
        defines.set(name, body);
      } else if (kw === 'template') {
        const m = /^("(?:[^"\\]|\\.)*")\s*(.*)$/s.exec(rest);
        if (!m?.[1]) throw new TemplateError(`${piece.where}: template needs a name`);
        nodes.push({ k: 'template', name: JSON.parse(m[1]) as string, pipe: m[2] ? parsePipeline(m[2], piece.where) : undefined, where: piece.where });
      } else if (['block', 'break', 'continue'].includes(kw)) {
        throw new TemplateError(`${piece.where}: {{ ${kw} }} is outside the supported subset`);
      } else {
        nodes.push({ k: 'action', pipe: parsePipeline(a, piece.where), where: piece.where });
      }
    }
    if (inside) throw new TemplateError(`${file}: {{ ${inside} }} without end`);
    return { nodes, closer: undefined };
  };
  const control = (kw: 'if' | 'with' | 'range', expr: string, where: string): Node => {
    const pipe = parsePipeline(expr, where);
    const { nodes: body, closer } = block(kw);
    let orElse: Node[] = [];
    const closing = closer?.action ?? '';
    if (closing.startsWith('else')) {
      const chained = /^else\s+(if|with)\s+(.*)$/s.exec(closing);
      if (chained) orElse = [control(chained[1] as 'if', chained[2] ?? '', closer?.where ?? where)];
      else {
        const tail = block(kw);
        if (tail.closer?.action !== 'end') throw new TemplateError(`${where}: {{ ${kw} }} without end`);
        orElse = tail.nodes;
      }
    }
    return kw === 'range' ? { k: 'range', pipe, body, orElse, where } : { k: kw, pipe, body, orElse, where };
  };
  return block(undefined).nodes;
}

// ---- evaluation -------------------------------------------------------------------------------

/** Go's truth: false, 0, nil, and empty strings, lists and maps are false. */
export function truthy(v: Value): boolean {
  if (v === null || v === undefined || v === false || v === 0 || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v as object).length > 0;
  return true;
}

const isMap = (v: Value): v is Record<string, Value> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** How Go prints a value in a template; maps and lists are refused (use toYaml). */
function print(v: Value, where: string): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw new TemplateError(`${where}: printing a ${Array.isArray(v) ? 'list' : 'map'} directly; use toYaml`);
}

function toYaml(v: Value): string {
  if (v === null || v === undefined) return 'null';
  // Helm's toYaml goes through JSON, so map keys come out sorted; it drops the final newline.
  return stringify(v, { sortMapEntries: true, lineWidth: 0, version: '1.1' }).replace(/\n$/, '');
}

const indent = (n: number, s: string) => ' '.repeat(n) + String(s).replaceAll('\n', `\n${' '.repeat(n)}`);

function goPrintf(format: string, args: Value[], where: string): string {
  let i = 0;
  return format.replace(/%([sdvq%])/g, (_m, verb: string) => {
    if (verb === '%') return '%';
    const a = args[i++];
    if (verb === 'q') return JSON.stringify(print(a, where));
    if (verb === 'd') return String(Math.trunc(Number(a)));
    return print(a, where);
  });
}

type Fn = (where: string, ...args: Value[]) => Value;

/** Index of the first value that passes, or of the last value. */
const firstIndex = (vs: Value[], test: (v: Value) => boolean) => {
  const i = vs.findIndex(test);
  return i === -1 ? vs.length - 1 : i;
};

const FUNCTIONS: Record<string, Fn> = {
  default: (_w: string, fallback: Value, given?: Value) => (truthy(given) ? given : fallback),
  empty: (_w: string, v: Value) => !truthy(v),
  required: (w: string, message: string, v: Value) => {
    if (v === null || v === undefined || v === '') throw new TemplateError(`${w}: ${message}`);
    return v;
  },
  quote: (w: string, ...vs: Value[]) =>
    vs
      .filter((v) => v !== null && v !== undefined)
      .map((v) => JSON.stringify(print(v, w)))
      .join(' '),
  toString: (w: string, v: Value) => print(v, w),
  toYaml: (_w: string, v: Value) => toYaml(v),
  // Go's encoding/json writes map keys in order.
  toJson: (_w: string, v: Value) =>
    JSON.stringify(v ?? null, (_k, x: Value) =>
      isMap(x)
        ? Object.fromEntries(
            Object.keys(x)
              .sort()
              .map((k) => [k, x[k]]),
          )
        : x,
    ),
  indent: (_w: string, n: number, s: string) => indent(n, s),
  nindent: (_w: string, n: number, s: string) => `\n${indent(n, s)}`,
  printf: (w: string, format: string, ...args: Value[]) => goPrintf(format, args, w),
  print: (w: string, ...args: Value[]) => args.map((a) => print(a, w)).join(''),
  eq: (_w: string, a: Value, ...bs: Value[]) => bs.some((b) => a === b),
  ne: (_w: string, a: Value, b: Value) => a !== b,
  lt: (_w: string, a: number, b: number) => a < b,
  gt: (_w: string, a: number, b: number) => a > b,
  not: (_w: string, v: Value) => !truthy(v),
  // Go returns the first false (and) or true (or) argument, else the last one.
  and: (_w: string, ...vs: Value[]) => vs[firstIndex(vs, (v) => !truthy(v))],
  or: (_w: string, ...vs: Value[]) => vs[firstIndex(vs, truthy)],
  list: (_w: string, ...vs: Value[]) => vs,
  dict: (_w: string, ...kv: Value[]) => Object.fromEntries(Array.from({ length: kv.length / 2 }, (_, i) => [String(kv[2 * i]), kv[2 * i + 1]])),
  index: (w: string, v: Value, ...keys: Value[]) =>
    keys.reduce((acc: Value, key: Value) => {
      if (acc === null || acc === undefined) throw new TemplateError(`${w}: index of nil`);
      return (acc as Record<string, Value>)[String(key)] ?? null;
    }, v),
  hasKey: (_w: string, m: Value, key: string) => isMap(m) && Object.prototype.hasOwnProperty.call(m, key),
  len: (_w: string, v: Value) => (typeof v === 'string' || Array.isArray(v) ? v.length : Object.keys((v ?? {}) as object).length),
  join: (w: string, sep: string, vs: Value[]) => vs.map((v) => print(v, w)).join(sep),
  lower: (w: string, s: Value) => print(s, w).toLowerCase(),
  replace: (w: string, from: string, to: string, s: Value) => print(s, w).replaceAll(from, to),
  trimSuffix: (w: string, suffix: string, s: Value) => {
    const str = print(s, w);
    return str.endsWith(suffix) ? str.slice(0, -suffix.length) : str;
  },
  trunc: (w: string, n: number, s: Value) => print(s, w).slice(0, n),
  sha256sum: (w: string, s: Value) => createHash('sha256').update(print(s, w)).digest('hex'),
};
/** The Helm and Go functions the renderer knows; using any other is an error. */
export const SUPPORTED_FUNCTIONS = [...Object.keys(FUNCTIONS), 'include', 'lookup'].sort();

/** What `lookup` finds: the objects of a cluster (apiVersion, kind, metadata.namespace and name). */
export type Cluster = readonly Record<string, Value>[];

type Scope = Map<string, Value>;

class Renderer {
  depth = 0;
  constructor(
    private readonly defines: Map<string, Node[]>,
    private readonly cluster: Cluster,
  ) {}

  /** Helm's `lookup apiVersion kind namespace name`: a copy of the object, or an empty map when there is none. */
  lookup(where: string, [apiVersion, kind, namespace, name]: Value[]): Value {
    if (!name) throw new TemplateError(`${where}: lookup of a list (no name) is outside the supported subset`);
    const found = this.cluster.find(
      (o) => o['apiVersion'] === apiVersion && o['kind'] === kind && (o['metadata']?.['namespace'] ?? '') === namespace && o['metadata']?.['name'] === name,
    );
    return found ? structuredClone(found) : {};
  }

  run(nodes: Node[], dot: Value, root: Value, scopes: Scope[]): string {
    let out = '';
    const scope: Scope = new Map();
    const all = [...scopes, scope];
    for (const node of nodes) {
      switch (node.k) {
        case 'text':
          out += node.v;
          break;
        case 'action': {
          const v = this.pipe(node.pipe, dot, root, all, node.where);
          if (!node.pipe.decl.length) out += print(v, node.where);
          break;
        }
        case 'if':
        case 'with': {
          const v = this.pipe(node.pipe, dot, root, all, `${node.where} ${node.k}`);
          if (truthy(v)) out += this.run(node.body, node.k === 'with' ? v : dot, root, all);
          else out += this.run(node.orElse, dot, root, all);
          break;
        }
        case 'range': {
          const decl = node.pipe.decl;
          const v = this.pipe({ ...node.pipe, decl: [] }, dot, root, all, `${node.where} range`);
          const entries: [Value, Value][] = Array.isArray(v)
            ? v.map((x, i) => [i, x])
            : isMap(v)
              ? Object.keys(v)
                  .sort()
                  .map((k) => [k, v[k]])
              : v === null || v === undefined
                ? []
                : (() => {
                    throw new TemplateError(`range over ${typeof v}`);
                  })();
          if (!entries.length) out += this.run(node.orElse, dot, root, all);
          for (const [key, value] of entries) {
            const iter: Scope = new Map();
            if (decl.length === 1) iter.set(decl[0] as string, value);
            if (decl.length === 2) {
              iter.set(decl[0] as string, key);
              iter.set(decl[1] as string, value);
            }
            out += this.run(node.body, value, root, [...all, iter]);
          }
          break;
        }
        case 'template': {
          const arg = node.pipe ? this.pipe(node.pipe, dot, root, all, node.where) : null;
          out += this.call(node.name, arg);
          break;
        }
      }
    }
    return out;
  }

  call(name: string, dot: Value): string {
    const body = this.defines.get(name);
    if (!body) throw new TemplateError(`no template "${name}"`);
    if (++this.depth > 100) throw new TemplateError(`templates nested too deep at "${name}"`);
    try {
      return this.run(body, dot, dot, [new Map([['$', dot]])]);
    } finally {
      this.depth--;
    }
  }

  pipe(p: Pipeline, dot: Value, root: Value, scopes: Scope[], where: string): Value {
    let value: Value = undefined;
    let piped = false;
    for (const cmd of p.cmds) {
      value = this.command(cmd, dot, root, scopes, piped ? [value] : [], where);
      piped = true;
    }
    if (p.decl.length === 1) {
      const name = p.decl[0] as string;
      if (p.assign) {
        const scope = [...scopes].reverse().find((s) => s.has(name));
        if (!scope) throw new TemplateError(`${where}: undefined variable ${name}`);
        scope.set(name, value);
      } else (scopes[scopes.length - 1] as Scope).set(name, value);
    }
    return value;
  }

  private command(cmd: Command, dot: Value, root: Value, scopes: Scope[], extra: Value[], where: string): Value {
    const [head, ...rest] = cmd.args;
    if (head?.k === 'ident') {
      const args = [...rest.map((a) => this.operand(a, dot, root, scopes, where)), ...extra];
      if (head.name === 'include') return this.call(String(args[0]), args[1]);
      if (head.name === 'lookup') return this.lookup(where, args);
      const fn = FUNCTIONS[head.name];
      if (!fn) throw new TemplateError(`${where}: function "${head.name}" is outside the supported subset`);
      return fn(where, ...args);
    }
    const value = this.operand(head as Operand, dot, root, scopes, where);
    if (!rest.length && !extra.length) return value;
    // A method of the data, such as .Files.Get: called with the arguments, as Go calls a method.
    if (typeof value !== 'function') throw new TemplateError(`${where}: can't give arguments to a non-function`);
    return (value as (...args: Value[]) => Value)(...rest.map((a) => this.operand(a, dot, root, scopes, where)), ...extra);
  }

  private operand(o: Operand, dot: Value, root: Value, scopes: Scope[], where: string): Value {
    switch (o.k) {
      case 'lit':
        return o.v;
      case 'field':
        return walk(dot, o.path, where);
      case 'var': {
        const scope = [...scopes].reverse().find((s) => s.has(o.name));
        if (!scope) throw new TemplateError(`${where}: undefined variable ${o.name}`);
        return walk(scope.get(o.name), o.path, where);
      }
      case 'ident':
        return this.command({ args: [o] }, dot, root, scopes, [], where);
      case 'pipe':
        return walk(this.pipe(o.pipe, dot, root, scopes, where), o.path, where);
    }
  }
}

function walk(v: Value, path: string[], where: string): Value {
  let cur = v;
  for (const key of path) {
    if (cur === null || cur === undefined) throw new TemplateError(`${where}: nil pointer evaluating .${path.join('.')} (at ${key})`);
    if (!isMap(cur)) throw new TemplateError(`${where}: can't evaluate field ${key} in ${typeof cur}`);
    cur = cur[key] ?? null;
  }
  return cur;
}

/** Renders `files` (name → source) with `data`, `lookup` finding `cluster`'s objects; returns each file's output. */
export function renderTemplates(files: Record<string, string>, data: Value, cluster: Cluster = []): Record<string, string> {
  const defines = new Map<string, Node[]>();
  const parsed = Object.entries(files).map(([name, source]) => [name, parseTemplate(source, name, defines)] as const);
  const renderer = new Renderer(defines, cluster);
  return Object.fromEntries(parsed.map(([name, nodes]) => [name, renderer.run(nodes, data, data, [new Map([['$', data]])])]));
}
