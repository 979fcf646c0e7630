/**
 * Source spans and the error shape of the template language (Kriti's `SerializedError`):
 * `{error_code, message, source_position}`. Lines count from 0 and columns from 1; the end
 * column points one past the last character, as Kriti's lexer reports them.
 */

export interface Pos {
  line: number;
  col: number;
}

export interface Span {
  start: Pos;
  end: Pos;
}

export interface SourcePosition {
  start_line: number;
  start_column: number;
  end_line: number;
  end_column: number;
}

export type TemplateErrorCode =
  | 'Lex Error'
  | 'Parse Error'
  | 'Type Error'
  | 'Index Error'
  | 'Attribute Error'
  | 'Name Error'
  | 'Function Error';

export interface TemplateError {
  error_code: TemplateErrorCode;
  message: string;
  source_position: SourcePosition;
}

const before = (a: Pos, b: Pos) => a.line < b.line || (a.line === b.line && a.col < b.col);

/** Kriti's `Semigroup Span`: the smallest span covering both. */
export function joinSpans(a: Span, b: Span): Span {
  return { start: before(b.start, a.start) ? b.start : a.start, end: before(a.end, b.end) ? b.end : a.end };
}

export function templateError(code: TemplateErrorCode, message: string, span: Span): TemplateError {
  return {
    error_code: code,
    message,
    source_position: {
      start_line: span.start.line,
      start_column: span.start.col,
      end_line: span.end.line,
      end_column: span.end.col,
    },
  };
}
