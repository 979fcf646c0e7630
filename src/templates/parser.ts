/**
 * The template AST and a recursive-descent parser for Kriti's grammar
 * (`Kriti/Parser/Grammar.y`). A template is one expression:
 *
 *   expr   := '{{' expr '}}' | 'not' expr | name '(' expr ')' | atom [binop atom]
 *   atom   := primary ( '.' name | '[' ('\'' text '\'' | atom) ']' | '?' field+ )*
 *   primary:= variable | JSON literal | string template | '(' expr ')'
 *           | '{{' 'if' expr '}}' expr ('{{' 'elif' expr '}}' expr)* '{{' 'else' '}}' expr '{{' 'end' '}}'
 *           | '{{' 'range' (name|'_') ',' name ':=' expr '}}' expr '{{' 'end' '}}'
 *
 * Binary operators are not associative: `a && b && c` needs parentheses, as in Kriti.
 * `elif` is our addition (the spec lists it); it reads as a nested `if` in the `else` branch.
 */
import { joinSpans, templateError, type Span, type TemplateError } from './errors.js';
import { lex, type Token } from './lexer.js';

export type BinaryOp = '>' | '<' | '>=' | '<=' | '!=' | '==' | '&&' | '||' | 'in' | '??';

/** A field name written `.name` (Kriti's `Left`), or a bracketed expression. */
export type Accessor = string | Node;

export type Node =
  | { kind: 'string'; span: Span; value: string }
  | { kind: 'template'; span: Span; parts: Node[] }
  | { kind: 'number'; span: Span; value: number }
  | { kind: 'boolean'; span: Span; value: boolean }
  | { kind: 'null'; span: Span }
  | { kind: 'array'; span: Span; items: Node[] }
  | { kind: 'object'; span: Span; fields: [string, Node][] }
  | { kind: 'var'; span: Span; name: string }
  | { kind: 'field'; span: Span; target: Node; key: Accessor }
  | { kind: 'optional'; span: Span; target: Node; path: Accessor[] }
  | { kind: 'if'; span: Span; cond: Node; then: Node; else: Node }
  | { kind: 'binary'; span: Span; op: BinaryOp; left: Node; right: Node }
  | { kind: 'range'; span: Span; index: string | null; binder: string; list: Node; body: Node }
  | { kind: 'call'; span: Span; name: string; arg: Node };

export type ParseResult = { ok: true; ast: Node } | { ok: false; error: TemplateError };

export function parse(src: string): ParseResult {
  const lexed = lex(src);
  if (!lexed.ok) return lexed;
  try {
    return { ok: true, ast: new Parser(lexed.tokens, lexed.lastSpan).template() };
  } catch (e) {
    if (e instanceof ParseFailure) return { ok: false, error: e.error };
    throw e;
  }
}

class ParseFailure {
  constructor(readonly error: TemplateError) {}
}

// Identifiers with these names are keywords everywhere, never variables.
const KEYWORDS = new Set(['if', 'elif', 'else', 'end', 'null', 'range', 'in', 'not']);
const SYMBOL_OPS = new Set(['>', '<', '>=', '<=', '!=', '==', '&&', '||', '??']);

function describe(t: Token): string {
  if (t.kind === 'text') return `"${t.text}"`;
  return t.text;
}

class Parser {
  private p = 0;

  /** `errorSpan`: Kriti reports every parse error at the last lexeme of the input. */
  constructor(
    private readonly tokens: Token[],
    private readonly errorSpan: Span,
  ) {}

  template(): Node {
    const e = this.expr();
    if (this.p < this.tokens.length) this.fail(this.peek());
    return e;
  }

  private peek(k = 0): Token | undefined {
    return this.tokens[this.p + k];
  }

  private fail(t: Token | undefined): never {
    const message = t ? `Unexpected token '${describe(t)}'.` : 'ParseError: Empty token stream.';
    throw new ParseFailure(templateError('Parse Error', message, this.errorSpan));
  }

  private isSymbol(t: Token | undefined, s: string): boolean {
    return t?.kind === 'symbol' && t.text === s;
  }

  private isKeyword(t: Token | undefined, k: string): boolean {
    return t?.kind === 'ident' && t.text === k;
  }

  private take(ok: (t: Token | undefined) => boolean): Token {
    const t = this.peek();
    if (!t || !ok(t)) this.fail(t);
    this.p++;
    return t;
  }

  private symbol(s: string): Token {
    return this.take((t) => this.isSymbol(t, s));
  }

  private keyword(k: string): Token {
    return this.take((t) => this.isKeyword(t, k));
  }

  private name(): Token {
    return this.take((t) => t?.kind === 'ident' && !KEYWORDS.has(t.text));
  }

  private startsBlock(): boolean {
    return this.isKeyword(this.peek(1), 'if') || this.isKeyword(this.peek(1), 'range');
  }

  private expr(): Node {
    const t = this.peek();
    if (this.isSymbol(t, '{{') && !this.startsBlock()) {
      this.p++;
      const e = this.expr();
      this.symbol('}}');
      return e;
    }
    if (t && this.isKeyword(t, 'not')) {
      this.p++;
      const arg = this.expr();
      return { kind: 'call', span: joinSpans(t.span, arg.span), name: 'not', arg };
    }
    if (t?.kind === 'ident' && !KEYWORDS.has(t.text) && this.isSymbol(this.peek(1), '(')) {
      this.p += 2;
      const arg = this.expr();
      const close = this.symbol(')');
      return { kind: 'call', span: joinSpans(t.span, close.span), name: t.text, arg };
    }
    const left = this.atom();
    const op = this.peek();
    if (op && ((op.kind === 'symbol' && SYMBOL_OPS.has(op.text)) || this.isKeyword(op, 'in'))) {
      this.p++;
      const right = this.atom();
      return { kind: 'binary', span: joinSpans(left.span, right.span), op: op.text as BinaryOp, left, right };
    }
    return left;
  }

  private atom(): Node {
    let node = this.primary();
    for (;;) {
      const t = this.peek();
      if (this.isSymbol(t, '.') || this.isSymbol(t, '[')) {
        const { key, end } = this.accessor();
        node = { kind: 'field', span: joinSpans(node.span, end), target: node, key };
      } else if (this.isSymbol(t, '?')) {
        this.p++;
        // Everything after `?` is optional: `$a?.b.c` is null when `b` is missing.
        const path = [this.accessor().key];
        while (this.isSymbol(this.peek(), '.') || this.isSymbol(this.peek(), '[')) path.push(this.accessor().key);
        node = { kind: 'optional', span: node.span, target: node, path };
      } else return node;
    }
  }

  private accessor(): { key: Accessor; end: Span } {
    if (this.isSymbol(this.peek(), '.')) {
      this.p++;
      const n = this.name();
      return { key: n.text, end: n.span };
    }
    this.symbol('[');
    let key: Node;
    if (this.isSymbol(this.peek(), "'")) {
      this.p++;
      const text = this.take((t) => t?.kind === 'text');
      this.symbol("'");
      key = { kind: 'string', span: text.span, value: text.text };
    } else key = this.atom();
    return { key, end: this.symbol(']').span };
  }

  private primary(): Node {
    const t = this.peek();
    if (!t) return this.fail(t);
    switch (t.kind) {
      case 'ident':
        if (t.text === 'null') {
          this.p++;
          return { kind: 'null', span: t.span };
        }
        return { kind: 'var', span: t.span, name: this.name().text };
      case 'bool':
        this.p++;
        return { kind: 'boolean', span: t.span, value: t.text === 'true' };
      case 'int':
      case 'number':
        this.p++;
        return { kind: 'number', span: t.span, value: Number(t.text) };
      case 'stringBegin':
        return this.stringTemplate();
      case 'symbol':
        if (t.text === '[') return this.array();
        if (t.text === '{') return this.object();
        if (t.text === '(') {
          this.p++;
          const e = this.expr();
          this.symbol(')');
          return e;
        }
        if (t.text === '{{') {
          this.p++;
          if (this.isKeyword(this.peek(), 'if')) return this.conditional(t);
          if (this.isKeyword(this.peek(), 'range')) return this.range(t);
          return this.fail(this.peek());
        }
    }
    return this.fail(t);
  }

  private stringTemplate(): Node {
    const begin = this.take((t) => t?.kind === 'stringBegin');
    const parts: Node[] = [];
    for (;;) {
      const t = this.peek();
      if (t?.kind === 'stringEnd') {
        this.p++;
        return { kind: 'template', span: joinSpans(begin.span, t.span), parts };
      }
      if (t?.kind === 'text') {
        this.p++;
        parts.push({ kind: 'string', span: t.span, value: t.text });
      } else if (this.isSymbol(t, '{{')) {
        this.p++;
        parts.push(this.expr());
        this.symbol('}}');
      } else return this.fail(t);
    }
  }

  private array(): Node {
    const open = this.symbol('[');
    const items: Node[] = [];
    if (!this.isSymbol(this.peek(), ']')) {
      items.push(this.expr());
      while (this.isSymbol(this.peek(), ',')) {
        this.p++;
        items.push(this.expr());
      }
    }
    const close = this.symbol(']');
    return { kind: 'array', span: joinSpans(open.span, close.span), items };
  }

  private object(): Node {
    const open = this.symbol('{');
    const fields: [string, Node][] = [];
    if (!this.isSymbol(this.peek(), '}')) {
      fields.push(this.objectField());
      while (this.isSymbol(this.peek(), ',')) {
        this.p++;
        fields.push(this.objectField());
      }
    }
    const close = this.symbol('}');
    return { kind: 'object', span: joinSpans(open.span, close.span), fields };
  }

  /** Keys are plain strings: `{{ }}` is not allowed in a key. */
  private objectField(): [string, Node] {
    this.take((t) => t?.kind === 'stringBegin');
    let key = '';
    while (this.peek()?.kind === 'text') key += this.take(() => true).text;
    this.take((t) => t?.kind === 'stringEnd');
    this.symbol(':');
    return [key, this.expr()];
  }

  private blockEnd(): Token {
    this.symbol('{{');
    this.keyword('end');
    return this.symbol('}}');
  }

  /** `cond '}}' body`, the part of an `if`/`elif` after its keyword. */
  private branch(open: Token): { open: Token; cond: Node; then: Node } {
    const cond = this.expr();
    this.symbol('}}');
    return { open, cond, then: this.expr() };
  }

  private conditional(open: Token): Node {
    this.keyword('if');
    const branches = [this.branch(open)];
    for (;;) {
      const next = this.symbol('{{');
      if (!this.isKeyword(this.peek(), 'elif')) break;
      this.p++;
      branches.push(this.branch(next));
    }
    this.keyword('else');
    this.symbol('}}');
    const otherwise = this.expr();
    const close = this.blockEnd();
    return branches.reduceRight<Node>(
      (acc, b) => ({ kind: 'if', span: joinSpans(b.open.span, close.span), cond: b.cond, then: b.then, else: acc }),
      otherwise,
    );
  }

  private range(open: Token): Node {
    this.keyword('range');
    let index: string | null = null;
    if (this.isSymbol(this.peek(), '_')) this.p++;
    else index = this.name().text;
    this.symbol(',');
    const binder = this.name().text;
    this.symbol(':=');
    const list = this.expr();
    this.symbol('}}');
    const body = this.expr();
    const close = this.blockEnd();
    return { kind: 'range', span: joinSpans(open.span, close.span), index, binder, list, body };
  }
}
