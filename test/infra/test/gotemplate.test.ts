import { renderTemplates, TemplateError } from './gotemplate.js';

// The expected outputs are what Go's text/template with Helm's functions prints for the same
// template and data (checked against their documented behaviour).

const render = (template: string, data: unknown = {}, helpers = '') => renderTemplates({ '_helpers.tpl': helpers, 't.yaml': template }, data)['t.yaml'];

describe('the Go-template subset used to render the Helm chart', () => {
  it('trims whitespace on the side of a {{- or -}} marker, comments included', () => {
    expect(render('a  {{- "x" -}}  \n b')).toBe('axb');
    expect(render('a\n{{- /* a comment */}}\nb')).toBe('a\nb');
    expect(render('a {{/* gone */}} b')).toBe('a  b');
  });

  it('prints values as Go does, and a missing map key as nothing (like helm)', () => {
    expect(render('{{ .n }} {{ .b }} {{ .s }} [{{ .missing }}]', { n: 8080, b: true, s: 'x' })).toBe('8080 true x []');
  });

  it('refuses to reach into a missing value, print a map, or call an unknown function', () => {
    expect(() => render('{{ .a.b }}', {})).toThrow(TemplateError);
    expect(() => render('{{ .m }}', { m: { a: 1 } })).toThrow(/toYaml/);
    expect(() => render('{{ tpl "x" . }}')).toThrow(/tpl.*outside the supported subset/);
    expect(() => render('{{ .s "x" }}', { s: 'not a function' })).toThrow(/non-function/);
  });

  it('looks objects up in the cluster it is given, and finds an empty map where there is none (as helm template does)', () => {
    const cluster = [{ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'keys', namespace: 'ns' }, data: { K: 'dg==' } }];
    const t = '[{{ (lookup "v1" "Secret" "ns" "keys").data | toJson }}]';
    expect(renderTemplates({ 't.yaml': t }, {}, cluster)['t.yaml']).toBe('[{"K":"dg=="}]');
    expect(render(t)).toBe('[null]');
    expect(renderTemplates({ 't.yaml': '{{ lookup "v1" "Secret" "other" "keys" | len }}' }, {}, cluster)['t.yaml']).toBe('0');
  });

  it('calls a function of the data with its arguments, as .Files.Get', () => {
    expect(render('{{ .Files.Get "a.json" }}', { Files: { Get: (name: string) => `<${name}>` } })).toBe('<a.json>');
  });

  it('chooses branches with Go truth: empty strings, 0, empty lists and maps are false', () => {
    const t = '{{ if .a }}A{{ else if .b }}B{{ else }}C{{ end }}';
    expect(render(t, { a: 'x' })).toBe('A');
    expect(render(t, { a: '', b: [1] })).toBe('B');
    expect(render(t, { a: 0, b: {} })).toBe('C');
    expect(render('{{ with .v }}[{{ . }}]{{ else }}none{{ end }}', { v: 'x' })).toBe('[x]');
    expect(render('{{ with .v }}[{{ . }}]{{ else }}none{{ end }}', { v: [] })).toBe('none');
  });

  it('ranges over lists by index and over maps in key order, with else for an empty one', () => {
    expect(render('{{ range $i, $v := .l }}{{ $i }}={{ $v }};{{ end }}', { l: ['a', 'b'] })).toBe('0=a;1=b;');
    expect(render('{{ range $k, $v := .m }}{{ $k }}={{ $v }};{{ end }}', { m: { b: 2, a: 1 } })).toBe('a=1;b=2;');
    expect(render('{{ range .l }}{{ . }}{{ else }}empty{{ end }}', { l: [] })).toBe('empty');
    expect(render('{{ range .l }}{{ $.p }}{{ . }} {{ end }}', { l: [1, 2], p: '#' })).toBe('#1 #2 ');
  });

  it('scopes variables to their block, and assigns to an outer one with =', () => {
    expect(render('{{ $x := "a" }}{{ if true }}{{ $x = "b" }}{{ $y := "c" }}{{ end }}{{ $x }}')).toBe('b');
    expect(() => render('{{ if true }}{{ $y := "c" }}{{ end }}{{ $y }}')).toThrow(/undefined variable \$y/);
  });

  it('includes named templates with their own dot, and indents them with nindent', () => {
    const helpers = '{{- define "labels" -}}\nname: {{ .name }}\npart-of: hush\n{{- end }}';
    expect(render('metadata:\n  labels:\n    {{- include "labels" (dict "name" "x") | nindent 4 }}\n', {}, helpers)).toBe('metadata:\n  labels:\n    name: x\n    part-of: hush\n');
  });

  it("renders toYaml with sorted keys and no final newline, as Helm's does", () => {
    expect(render('{{ toYaml .v }}', { v: { b: [1, 'x'], a: { c: true } } })).toBe('a:\n  c: true\nb:\n  - 1\n  - x');
  });

  it('has default, quote, required, printf, sha256sum, and/or/not/eq with their Helm meanings', () => {
    expect(render('{{ .v | default "d" }}|{{ 0 | default 5 }}|{{ "x" | default "d" }}', { v: '' })).toBe('d|5|x');
    expect(render('{{ .s | quote }}', { s: 'say "hi"' })).toBe('"say \\"hi\\""');
    expect(() => render('{{ .v | required "v is needed" }}', { v: '' })).toThrow(/v is needed/);
    expect(render('{{ printf "%s-migrate-%d" .r 3 }}', { r: 'hush' })).toBe('hush-migrate-3');
    expect(render('{{ "abc" | sha256sum }}')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(render('{{ and 1 "" 2 }}|{{ or "" 0 "z" }}|{{ not "" }}|{{ eq .a "x" "y" }}', { a: 'y' })).toBe('|z|true|true');
    expect(render('{{ if and .missing true }}yes{{ else }}no{{ end }}|{{ or .missing nil }}|{{ and 1 2 }}', {})).toBe('no||2');
  });

  it('reads a field of a parenthesised result, and index into maps', () => {
    expect(render('{{ (index .Values "identity").image.tag }}', { Values: { identity: { image: { tag: '1.2' } } } })).toBe('1.2');
    // With a space, the field is the next argument, not a field of the result.
    expect(render('{{ eq (.a | default "x") .b }}', { a: '', b: 'x' })).toBe('true');
  });
});
