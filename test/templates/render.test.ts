import { describe, expect, it } from 'vitest';
import { renderTemplate } from '../../src/templates/index.js';

const env = {
  $body: { s: 'world', n: 3, f: 1.5, xs: [1, 2, null], o: { b: 1, a: 2 }, nested: { k: null } },
  $session_variables: { 'x-service-user-id': '42' },
};

function value(template: string, e: Record<string, unknown> = env): unknown {
  const r = renderTemplate(template, e);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value;
}

function error(template: string, e: Record<string, unknown> = env): unknown {
  const r = renderTemplate(template, e);
  if (r.ok) throw new Error(`rendered ${JSON.stringify(r.value)}`);
  expect(r.errors).toHaveLength(1);
  const [err] = r.errors;
  return { code: err!.error_code, message: err!.message, at: [err!.source_position.start_column, err!.source_position.end_column] };
}

describe('rendering', () => {
  it('builds JSON, keeping the first of duplicate keys', () => {
    expect(value('{"a": 1, "b": [true, null, "x"], "a": 2}')).toEqual({ a: 1, b: [true, null, 'x'] });
  });

  it('interpolates values, and writes non-strings into strings as aeson does', () => {
    expect(value('{"greeting": "hello_{{ $body.s }}", "n": {{ $body.n }}}')).toEqual({ greeting: 'hello_world', n: 3 });
    expect(value('"{{ $body.n }} {{ $body.f }} {{ 0.01 }} {{ true }} {{ null }} {{ $body.o }} {{ $body.xs }}"')).toBe(
      '3 1.5 1.0e-2 true null {"a":2,"b":1} [1,2,null]',
    );
  });

  it('reads paths with dots, quoted keys and indexes', () => {
    expect(value("{{ $body['o'].a }}")).toBe(2);
    expect(value('{{ $body.xs[1] }}')).toBe(2);
    expect(value('{{ $body.nested.k }}')).toBe(null);
    expect(value('{{ range i, x := [0, 1] }} {{ $body.xs[i] }} {{ end }}')).toEqual([1, 2]);
  });

  it('gives null for missing steps after ?, and ?? replaces null', () => {
    expect(value('{{ $body?.missing.deeper }}')).toBe(null);
    expect(value(`{{ $body.o?['zz'] ?? "fallback" }}`)).toBe('fallback');
    expect(value('{{ $body.xs?[7] }}')).toBe(null);
    expect(value('{{ $nobody?.x }}')).toBe(null);
    expect(value('{{ $body.s ?? 1 }}')).toBe('world');
  });

  it('evaluates conditionals, including elif', () => {
    const t = (n: number) => `{{ if ${n} > 2 }} "big" {{ elif ${n} > 1 }} "mid" {{ else }} "small" {{ end }}`;
    expect([3, 2, 1].map((n) => value(t(n)))).toEqual(['big', 'mid', 'small']);
  });

  it('ranges over arrays, binding the element and the index', () => {
    expect(value('{{ range i, x := $body.xs }} {"i": {{ i }}, "x": {{ x }}} {{ end }}')).toEqual([
      { i: 0, x: 1 },
      { i: 1, x: 2 },
      { i: 2, x: null },
    ]);
    expect(value('{{ range _, x := $body.xs }} "{{ x }}" {{ end }}')).toEqual(['1', '2', 'null']);
  });

  it('compares JSON values, ordering types as aeson does', () => {
    expect(value('[{{ 1 < 2 }}, {{ 2 >= 2 }}, {{ "a" < 1 }}, {{ null > 1 }}, {{ "b" > "a" }}, {{ [1, 2] == [1, 2] }}, {{ {"a": 1} != {"a": 1} }}]')).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
      false,
    ]);
  });

  it('evaluates boolean operators, in, and not', () => {
    expect(value('[{{ (1 < 2) && false }}, {{ false || true }}, {{ "a" in $body.o }}, {{ 2 in $body.xs }}, {{ not false }}]')).toEqual([
      false,
      true,
      true,
      true,
      true,
    ]);
  });

  it('calls built-in, session and caller-supplied functions; built-ins cannot be shadowed', () => {
    expect(value('{{ getSessionVariable("X-Service-User-Id") }}')).toBe('42');
    const functions = { double: (x: unknown) => ({ ok: true as const, value: (x as number) * 2 }), size: () => ({ ok: true as const, value: -1 }) };
    expect(renderTemplate('[{{ double(21) }}, {{ size("abc") }}]', {}, functions)).toEqual({ ok: true, value: [42, 3] });
    expect(renderTemplate('{{ oops(1) }}', {}, { oops: () => ({ ok: false, message: 'nope' }) })).toMatchObject({
      errors: [{ error_code: 'Function Error', message: 'nope' }],
    });
  });

  it('ignores comments', () => {
    expect(value('{{ $body.n }} # the count')).toBe(3);
  });
});

describe('runtime errors', () => {
  it('reports a missing attribute over the whole path', () => {
    expect(error('{{ $body.world }}')).toEqual({ code: 'Attribute Error', message: "'Object' has no attribute 'world'.", at: [4, 15] });
    expect(error('{{ $body.o.zz ?? 1 }}')).toMatchObject({ code: 'Attribute Error' });
  });

  it('reports an unbound variable or function', () => {
    expect(error('{{ $x }}')).toEqual({ code: 'Name Error', message: "Variable '$x' not in scope", at: [4, 6] });
    expect(error('{{ fooFunction("myVariable") }}')).toEqual({ code: 'Name Error', message: "Variable 'fooFunction' not in scope", at: [4, 29] });
  });

  it('reports type mismatches with Kriti’s wording', () => {
    const m = (expected: string, actual: string) => `Couldn't matche expected type '${expected}' with actual type '${actual}'`;
    expect(error('{{ $body.s.x }}')).toEqual({ code: 'Type Error', message: m('Object', 'String'), at: [4, 11] });
    expect(error('{{ $body[0] }}')).toEqual({ code: 'Type Error', message: m('String', 'Number'), at: [4, 9] });
    expect(error("{{ $body.xs['a'] }}")).toEqual({ code: 'Type Error', message: m('Integer', 'String'), at: [4, 17] });
    expect(error('{{ $body.n[0] }}')).toEqual({ code: 'Type Error', message: m('Object', 'Number'), at: [4, 11] });
    expect(error('{{ $body.s?.a }}')).toEqual({ code: 'Type Error', message: m('Object', 'String'), at: [4, 11] });
    expect(error('{{ 1 && true }}')).toEqual({ code: 'Type Error', message: m('Boolean', 'Number'), at: [4, 13] });
    expect(error('{{ 1 in {"a": 1} }}')).toMatchObject({ message: m('String', 'Number') });
    expect(error('{{ 1 in 2 }}')).toMatchObject({ message: m('Array', 'Number') });
    expect(error('{{ if 1 }} 1 {{ else }} 2 {{ end }}')).toEqual({ code: 'Type Error', message: m('Boolean', 'Number'), at: [1, 36] });
    expect(error('{{ range _, x := 1 }} x {{ end }}')).toEqual({ code: 'Type Error', message: m('Array', 'Number'), at: [1, 34] });
  });

  it('reports an index out of range with Kriti’s message', () => {
    expect(error('{{ $body.xs[5] }}')).toEqual({ code: 'Index Error', message: 'Can only range over an array', at: [4, 15] });
  });

  it('reports a function failure at the argument', () => {
    expect(error('{{ toUpper(1) }}')).toEqual({
      code: 'Function Error',
      message: 'parsing String failed, expected String, but encountered Number',
      at: [12, 13],
    });
    expect(error('{{ getSessionVariable("this_variable_doesnt_exist") }}')).toEqual({
      code: 'Function Error',
      message: 'Session variable "this_variable_doesnt_exist" not found',
      at: [23, 51],
    });
  });

  it('reports errors on later lines with their line number', () => {
    const r = renderTemplate('{\n  "a": {{ $x }}\n}', {});
    expect(!r.ok && r.errors[0]!.source_position).toEqual({ start_line: 1, start_column: 11, end_line: 1, end_column: 13 });
  });
});
