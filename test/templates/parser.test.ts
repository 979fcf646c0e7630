import { describe, expect, it } from 'vitest';
import { parse } from '../../src/templates/parser.js';

/** The AST without spans, for shape assertions. */
function shape(src: string): unknown {
  const r = parse(src);
  if (!r.ok) throw new Error(r.error.message);
  return JSON.parse(JSON.stringify(r.ast, (k, v: unknown) => (k === 'span' ? undefined : v)));
}

function parseError(src: string): unknown {
  const r = parse(src);
  if (r.ok) throw new Error('parsed');
  return { message: r.error.message, at: [r.error.source_position.start_column, r.error.source_position.end_column] };
}

const v = (name: string) => ({ kind: 'var', name });
const num = (value: number) => ({ kind: 'number', value });
const str = (value: string) => ({ kind: 'template', parts: [{ kind: 'string', value }] });

describe('parser', () => {
  it('parses JSON literals; strings are templates', () => {
    expect(shape('{"a": [1, -2.5, true, null], "": "x"}')).toEqual({
      kind: 'object',
      fields: [
        ['a', { kind: 'array', items: [num(1), num(-2.5), { kind: 'boolean', value: true }, { kind: 'null' }] }],
        ['', str('x')],
      ],
    });
  });

  it('parses interpolation at the top level and inside strings', () => {
    expect(shape('{{ $body }}')).toEqual(v('$body'));
    expect(shape('"a{{ $x }}b"')).toEqual({ kind: 'template', parts: [{ kind: 'string', value: 'a' }, v('$x'), { kind: 'string', value: 'b' }] });
  });

  it('parses path accessors', () => {
    expect(shape("{{ $a.b['c d'][0][$i] }}")).toEqual({
      kind: 'field',
      target: {
        kind: 'field',
        target: { kind: 'field', target: { kind: 'field', target: v('$a'), key: 'b' }, key: { kind: 'string', value: 'c d' } },
        key: num(0),
      },
      key: v('$i'),
    });
  });

  it('parses optional chains: everything after ? belongs to the chain', () => {
    expect(shape("{{ $a?.b['c'][1] }}")).toEqual({ kind: 'optional', target: v('$a'), path: ['b', { kind: 'string', value: 'c' }, num(1)] });
    expect(shape('{{ $a.b?.c ?? 1 }}')).toEqual({
      kind: 'binary',
      op: '??',
      left: { kind: 'optional', target: { kind: 'field', target: v('$a'), key: 'b' }, path: ['c'] },
      right: num(1),
    });
  });

  it('parses each binary operator, including in', () => {
    for (const op of ['>', '<', '>=', '<=', '!=', '==', '&&', '||', 'in', '??']) {
      expect(shape(`{{ $a ${op} $b }}`)).toEqual({ kind: 'binary', op, left: v('$a'), right: v('$b') });
    }
  });

  it('parses not and function calls', () => {
    expect(shape('{{ not $a == $b }}')).toEqual({ kind: 'call', name: 'not', arg: { kind: 'binary', op: '==', left: v('$a'), right: v('$b') } });
    expect(shape('{{ size($a) }}')).toEqual({ kind: 'call', name: 'size', arg: v('$a') });
  });

  it('parses if / elif / else as nested conditionals', () => {
    expect(shape('{{ if $a }} 1 {{ elif $b }} 2 {{ else }} 3 {{ end }}')).toEqual({
      kind: 'if',
      cond: v('$a'),
      then: num(1),
      else: { kind: 'if', cond: v('$b'), then: num(2), else: num(3) },
    });
  });

  it('parses range, with or without an index binder', () => {
    expect(shape('{{ range i, x := $xs }} {{ x }} {{ end }}')).toEqual({ kind: 'range', index: 'i', binder: 'x', list: v('$xs'), body: v('x') });
    expect(shape('{{ range _, x := $xs }} x {{ end }}')).toMatchObject({ index: null, binder: 'x' });
  });

  it('spans a call from its name to its closing parenthesis', () => {
    const r = parse('{{ f(1) }}');
    expect(r.ok && r.ast.span).toEqual({ start: { line: 0, col: 4 }, end: { line: 0, col: 8 } });
  });

  it('reports unexpected tokens at the last lexeme of the input, as Kriti does', () => {
    expect(parseError('$body.hello }}')).toEqual({ message: "Unexpected token '}'.", at: [14, 15] });
    expect(parseError('{"a": 1,}')).toEqual({ message: "Unexpected token '}'.", at: [9, 10] });
    expect(parseError('{{ $x }} {{ $y }}')).toEqual({ message: "Unexpected token '{{'.", at: [16, 18] });
    expect(parseError('[1 "x"]')).toEqual({ message: `Unexpected token '"'.`, at: [7, 8] });
    expect(parseError('{"a{{ 1 }}": 1}')).toMatchObject({ message: "Unexpected token '{{'." });
  });

  it('rejects chained binary operators and keywords used as names', () => {
    expect(parseError('{{ 1 < 2 && 2 < 3 }}')).toEqual({ message: "Unexpected token '&&'.", at: [19, 21] });
    expect(parseError('{{ $x.end }}')).toMatchObject({ message: "Unexpected token 'end'." });
    expect(parseError('{{ if $a }} 1 {{ end }}')).toMatchObject({ message: "Unexpected token 'end'." });
  });

  it('reports running out of tokens', () => {
    expect(parseError('{{ $x')).toEqual({ message: 'ParseError: Empty token stream.', at: [4, 6] });
    expect(parseError('')).toEqual({ message: 'ParseError: Empty token stream.', at: [1, 1] });
  });
});
