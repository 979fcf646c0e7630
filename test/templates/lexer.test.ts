import { describe, expect, it } from 'vitest';
import { lex, type Token } from '../../src/templates/lexer.js';

function tokens(src: string): [string, string, string][] {
  const r = lex(src);
  if (!r.ok) throw new Error(r.error.message);
  const at = (t: Token) => `${t.span.start.line}:${t.span.start.col}-${t.span.end.line}:${t.span.end.col}`;
  return r.tokens.map((t) => [t.kind, t.text, at(t)]);
}

describe('lexer', () => {
  it('reads a string template in string mode, with spans from column 1', () => {
    expect(tokens('"a{b{{ $x.y }}c"')).toEqual([
      ['stringBegin', '"', '0:1-0:2'],
      ['text', 'a', '0:2-0:3'],
      ['text', '{', '0:3-0:4'],
      ['text', 'b', '0:4-0:5'],
      ['symbol', '{{', '0:5-0:7'],
      ['ident', '$x', '0:8-0:10'],
      ['symbol', '.', '0:10-0:11'],
      ['ident', 'y', '0:11-0:12'],
      ['symbol', '}}', '0:13-0:15'],
      ['text', 'c', '0:15-0:16'],
      ['stringEnd', '"', '0:16-0:17'],
    ]);
  });

  it('counts lines from 0 and restarts columns after a newline', () => {
    expect(tokens('{\n  "a": {{ $x }}\n}').filter(([k]) => k === 'ident')).toEqual([['ident', '$x', '1:11-1:13']]);
  });

  it('reads numbers, keeping the integer rule on ties', () => {
    expect(tokens('-12 3.5 1e3 007').map(([k, t]) => [k, t])).toEqual([
      ['int', '-12'],
      ['number', '3.5'],
      ['number', '1e3'],
      ['int', '007'],
    ]);
  });

  it('reads identifiers with $, _ and - inside, and true/false as booleans', () => {
    expect(tokens('$body x-service-id $ true truex _').map(([k, t]) => [k, t])).toEqual([
      ['ident', '$body'],
      ['ident', 'x-service-id'],
      ['ident', '$'],
      ['bool', 'true'],
      ['ident', 'truex'],
      ['symbol', '_'],
    ]);
  });

  it('takes the longest symbol, and "}}" only inside {{ }}', () => {
    expect(tokens('{{ a ?? b >= c != d := e }}').map(([, t]) => t)).toEqual(['{{', 'a', '??', 'b', '>=', 'c', '!=', 'd', ':=', 'e', '}}']);
    expect(tokens('{"a": {}}').map(([, t]) => t)).toEqual(['{', '"', 'a', '"', ':', '{', '}', '}']);
  });

  it('reads single-quoted keys verbatim inside {{ }}, and strings without escapes', () => {
    expect(tokens("{{ $x['a b'] }}").map(([k, t]) => [k, t])).toContainEqual(['text', 'a b']);
    expect(tokens('"a\\nb"')).toContainEqual(['text', 'a\\nb', '0:2-0:6']);
  });

  it('skips # comments to the end of the line', () => {
    expect(tokens('1 # one\n# two\n2').map(([, t]) => t)).toEqual(['1', '2']);
  });

  it('keeps the span of the last lexeme read, whitespace included', () => {
    const r = lex('{{ $x }}  ');
    expect(r.ok && r.lastSpan).toEqual({ start: { line: 0, col: 9 }, end: { line: 0, col: 11 } });
  });

  it('reports an invalid lexeme with the rest of the input, spanned in bytes', () => {
    expect(lex('{{ $body !x }}')).toEqual({
      ok: false,
      error: {
        error_code: 'Lex Error',
        message: "Invalid Lexeme: 'x }}'",
        source_position: { start_line: 0, start_column: 11, end_line: 0, end_column: 15 },
      },
    });
    const brace = lex("{{ $x['a{'] }}");
    expect(!brace.ok && brace.error.message).toBe("Invalid Lexeme: '{'] }}'");
    expect(!brace.ok && brace.error.source_position).toMatchObject({ start_column: 9, end_column: 15 });
    expect(lex("'a'").ok).toBe(false);
  });
});
