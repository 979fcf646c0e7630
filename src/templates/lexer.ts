/**
 * The template lexer, after Kriti's Alex lexer (`Kriti/Parser/Lexer.x`). It is modal: in
 * JSON text (`top`) and inside `{{ }}` (`expr`) it reads symbols, literals and identifiers;
 * a `"` switches to `string`, where text runs until `"` or `{{`; a `'` inside `{{ }}`
 * switches to `literal`. Strings are taken verbatim: Kriti has no escape sequences, so a
 * backslash stays in the text and `\"` ends the string.
 *
 * Besides the tokens it returns the span of the last lexeme read (tokens and skipped
 * whitespace alike), because that is where Kriti reports every parse error.
 */
import { templateError, type Pos, type Span, type TemplateError } from './errors.js';

export type TokenKind = 'ident' | 'bool' | 'int' | 'number' | 'text' | 'symbol' | 'stringBegin' | 'stringEnd';

export interface Token {
  kind: TokenKind;
  /** Source text; for `text` tokens, the string fragment. */
  text: string;
  span: Span;
}

export type LexResult = { ok: true; tokens: Token[]; lastSpan: Span } | { ok: false; error: TemplateError };

type Mode = 'top' | 'expr' | 'string' | 'literal';

const TWO_CHAR_SYMBOLS = ['==', '!=', '>=', '<=', '&&', '||', ':=', '??', '{{'];
const ONE_CHAR_SYMBOLS = ':.,><_{}[]()?';
const WHITESPACE = /[ \t\n\f\v\r]+/y;
const IDENT = /\$?[A-Za-z][$A-Za-z0-9_-]*|\$/y;
const INT = /-?[0-9]+/y;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
// Characters that can only begin a longer token: an invalid lexeme is reported after them.
const PARTIAL_PREFIXES = '-!=&|';

function matchAt(re: RegExp, src: string, i: number): string | undefined {
  re.lastIndex = i;
  return re.exec(src)?.[0];
}

export function lex(src: string): LexResult {
  const tokens: Token[] = [];
  const modes: Mode[] = ['top'];
  let i = 0;
  let pos: Pos = { line: 0, col: 1 };
  let lastSpan: Span = { start: pos, end: pos };

  // Consumes `n` UTF-16 units, moving the position by code points as Alex does.
  const consume = (n: number): Span => {
    const start = pos;
    let { line, col } = pos;
    for (const ch of src.slice(i, i + n)) {
      if (ch === '\n') {
        line++;
        col = 1;
      } else col++;
    }
    i += n;
    pos = { line, col };
    lastSpan = { start, end: pos };
    return lastSpan;
  };
  const emit = (kind: TokenKind, text: string, length = text.length) => {
    tokens.push({ kind, text, span: consume(length) });
  };
  const push = (mode: Mode) => modes.unshift(mode);
  // Popping the last mode leaves `top`, as Kriti's start-code stack does.
  const pop = () => (modes.length > 1 ? modes.shift() : undefined);

  while (i < src.length) {
    const mode = modes[0]!;
    const rest = src.slice(i);
    if (mode === 'string') {
      if (rest.startsWith('"')) {
        pop();
        emit('stringEnd', '"');
      } else if (rest.startsWith('{{')) {
        push('expr');
        emit('symbol', '{{');
      } else if (rest.startsWith('{')) emit('text', '{');
      else emit('text', /^[^"{]+/.exec(rest)![0]);
      continue;
    }
    if (mode === 'literal') {
      if (rest.startsWith("'")) {
        pop();
        emit('symbol', "'");
      } else if (rest.startsWith('{')) return invalidLexeme(src, i, pos);
      else emit('text', /^[^'{]+/.exec(rest)![0]);
      continue;
    }

    const space = matchAt(WHITESPACE, src, i);
    if (space) {
      consume(space.length);
      continue;
    }
    if (rest.startsWith('#')) {
      consume(/^[^\n]*/.exec(rest)![0].length);
      continue;
    }
    const ident = matchAt(IDENT, src, i);
    if (ident) {
      emit(ident === 'true' || ident === 'false' ? 'bool' : 'ident', ident);
      continue;
    }
    // Longest match wins; on a tie the integer rule, listed first in Kriti, does.
    const int = matchAt(INT, src, i);
    const num = matchAt(NUMBER, src, i);
    if (int !== undefined || num !== undefined) {
      if ((int?.length ?? 0) >= (num?.length ?? 0)) emit('int', int!);
      else emit('number', num!);
      continue;
    }
    if (rest.startsWith('"')) {
      push('string');
      emit('stringBegin', '"');
      continue;
    }
    if (mode === 'expr' && rest.startsWith('}}')) {
      pop();
      emit('symbol', '}}');
      continue;
    }
    if (mode === 'expr' && rest.startsWith("'")) {
      push('literal');
      emit('symbol', "'");
      continue;
    }
    const two = TWO_CHAR_SYMBOLS.find((s) => rest.startsWith(s));
    if (two) {
      if (two === '{{') push('expr');
      emit('symbol', two);
      continue;
    }
    if (ONE_CHAR_SYMBOLS.includes(rest[0]!)) {
      emit('symbol', rest[0]!);
      continue;
    }
    if (PARTIAL_PREFIXES.includes(rest[0]!)) consume(1);
    return invalidLexeme(src, i, pos);
  }
  return { ok: true, tokens, lastSpan };
}

/** Kriti reports the whole unread input, and spans it by its length in bytes. */
function invalidLexeme(src: string, i: number, pos: Pos): LexResult {
  const rest = src.slice(i);
  const end = { line: pos.line, col: pos.col + new TextEncoder().encode(rest).length };
  return { ok: false, error: templateError('Lex Error', `Invalid Lexeme: '${rest}'`, { start: pos, end }) };
}
