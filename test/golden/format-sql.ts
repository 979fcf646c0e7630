/**
 * The layout of the golden files' SQL (`expected.sql`): each statement the engine writes on one
 * line is shown with its top-level clauses on lines of their own (SELECT, FROM, each JOIN or
 * APPLY, WHERE, GROUP BY, HAVING, ORDER BY, LIMIT, OFFSET, FOR JSON, UNION, and the DML
 * clauses: SET, OUTPUT, VALUES, RETURNING, ON CONFLICT, a MERGE's USING and WHEN), and each
 * subquery, `(SELECT ...)` or `(WITH ...)` wherever it stands, on the lines after its opening
 * parenthesis, indented two spaces further, its closing parenthesis back on a line of its own.
 * Quoted identifiers ("...", SQL Server's [...], BigQuery's `...`), string literals ('...' with
 * '' escapes, PostgreSQL's E'...' and BigQuery's with backslash escapes) and parentheses are
 * read as such: a keyword inside them is no clause, a parenthesis inside a literal none.
 *
 * Only white space changes: a break replaces the spaces before a clause (or inside a
 * subquery's parentheses), all else is kept as written. Comment lines (`-- ...`) are kept as
 * they are. Used by the golden tests only: the engine's own statements stay on one line.
 */

export type SqlDialect = 'postgres' | 'mssql' | 'bigquery';

type Token =
  | { kind: 'comment' | 'newline' | 'space' | 'word' | 'quoted' | 'other'; text: string }
  | { kind: 'open' | 'close'; text: string };

interface Group {
  open: string;
  items: Item[];
  close: string;
}
type Item = Token | Group;

const isGroup = (i: Item): i is Group => 'items' in i;

/** Where a quoted token opening with `c` ends (the index after it), in this dialect; -1: `c` opens none. */
function quoteEnd(text: string, at: number, dialect: SqlDialect, backslash: boolean): number {
  const c = text[at]!;
  const close = c === '[' ? ']' : c;
  if (!(c === '"' || c === "'" || (c === '[' && dialect === 'mssql') || (c === '`' && dialect === 'bigquery'))) return -1;
  // BigQuery escapes with backslashes in every quoted form; PostgreSQL in its E'...' strings.
  const escapes = backslash || dialect === 'bigquery';
  for (let i = at + 1; i < text.length; i++) {
    if (escapes && text[i] === '\\') i++;
    else if (text[i] === close) {
      if (text[i + 1] !== close) return i + 1;
      i++;
    }
  }
  return text.length;
}

/** The text as tokens: a `--` comment only at the start of a line, newlines outside quotes. */
function tokenize(text: string, dialect: SqlDialect): Token[] {
  const tokens: Token[] = [];
  let lineStart = true;
  for (let i = 0; i < text.length; ) {
    const c = text[i]!;
    let kind: Token['kind'];
    let end: number;
    if (lineStart && text.startsWith('--', i)) {
      kind = 'comment';
      end = text.indexOf('\n', i);
      if (end < 0) end = text.length;
    } else if (c === '\n') {
      kind = 'newline';
      end = i + 1;
    } else if (/\s/.test(c)) {
      kind = 'space';
      end = i + 1;
      while (end < text.length && text[end] !== '\n' && /\s/.test(text[end]!)) end++;
    } else if (/[A-Za-z0-9_$@#]/.test(c)) {
      end = i + 1;
      while (end < text.length && /[A-Za-z0-9_$@#]/.test(text[end]!)) end++;
      // A prefixed literal: E'...' (backslash escapes), N'...'.
      const prefix = text.slice(i, end);
      const quoted = /^[EeNn]$/.test(prefix) && text[end] === "'" ? quoteEnd(text, end, dialect, /^[Ee]$/.test(prefix)) : -1;
      kind = quoted < 0 ? 'word' : 'quoted';
      if (quoted >= 0) end = quoted;
    } else if (quoteEnd(text, i, dialect, false) >= 0) {
      kind = 'quoted';
      end = quoteEnd(text, i, dialect, false);
    } else {
      kind = c === '(' || c === '[' ? 'open' : c === ')' || c === ']' ? 'close' : 'other';
      end = i + 1;
    }
    tokens.push({ kind, text: text.slice(i, end) });
    lineStart = kind === 'newline';
    i = end;
  }
  return tokens;
}

/** The tokens of one statement as nested groups (an unbalanced parenthesis stays a token). */
function nest(tokens: Token[]): Item[] {
  const stack: Group[] = [{ open: '', items: [], close: '' }];
  for (const t of tokens) {
    if (t.kind === 'open') stack.push({ open: t.text, items: [], close: '' });
    else if (t.kind === 'close' && stack.length > 1) {
      const group = stack.pop()!;
      group.close = t.text;
      stack.at(-1)!.items.push(group);
    } else stack.at(-1)!.items.push(t);
  }
  while (stack.length > 1) {
    const open = stack.pop()!;
    stack.at(-1)!.items.push({ kind: 'open', text: open.open }, ...open.items);
  }
  return stack[0]!.items;
}

const word = (i: Item | undefined): string | null => (i && !isGroup(i) && i.kind === 'word' ? i.text : null);
/** A statement separator: what follows starts a line. */
const isSemicolon = (i: Item | undefined): boolean => i !== undefined && !isGroup(i) && i.text === ';';
const significant = (i: Item): boolean => isGroup(i) || (i.kind !== 'space' && i.kind !== 'newline');

/** A group holding a query: its first token is SELECT or WITH. */
const isSubquery = (g: Group): boolean => g.open === '(' && ['SELECT', 'WITH'].includes(word(g.items.find(significant)) ?? '');

const JOIN_WORDS = new Set(['LEFT', 'RIGHT', 'FULL', 'INNER', 'CROSS', 'OUTER', 'NATURAL']);
const ALWAYS = new Set(['SELECT', 'WHERE', 'HAVING', 'WINDOW', 'QUALIFY', 'LIMIT', 'OFFSET', 'RETURNING', 'OUTPUT', 'UNION', 'INTERSECT']);

/** Whether the `n`th significant item of a statement starts a clause (`first`: the statement's first word). */
function startsClause(items: Item[], n: number, first: string | null): boolean {
  const w = word(items[n]);
  if (n === 0 || w === null) return false;
  const prev = word(items[n - 1]);
  const next = word(items[n + 1]);
  if (ALWAYS.has(w)) return true;
  switch (w) {
    case 'EXCEPT': {
      // Not BigQuery's `SELECT * EXCEPT (column)`.
      const after = items[n + 1];
      return !(after && isGroup(after) && !isSubquery(after));
    }
    case 'FROM':
      return prev !== 'DISTINCT' && prev !== 'DELETE';
    case 'VALUES':
      return prev !== 'DEFAULT' && first !== 'MERGE';
    case 'GROUP':
    case 'ORDER':
      return next === 'BY';
    case 'FOR':
      return ['JSON', 'XML', 'UPDATE', 'SHARE', 'NO', 'KEY'].includes(next ?? '');
    case 'SET':
      return first === 'UPDATE';
    case 'ON':
      return next === 'CONFLICT';
    case 'USING':
      return first === 'MERGE';
    case 'WHEN':
      return first === 'MERGE' && (next === 'MATCHED' || next === 'NOT');
  }
  if (!JOIN_WORDS.has(w) && w !== 'JOIN' && w !== 'APPLY') return false;
  if (prev !== null && JOIN_WORDS.has(prev)) return false;
  // LEFT OUTER JOIN, CROSS APPLY, JOIN...: the words up to JOIN or APPLY.
  let i = n;
  while (word(items[i]) !== null && JOIN_WORDS.has(word(items[i])!)) i++;
  return word(items[i]) === 'JOIN' || (word(items[i]) === 'APPLY' && i > n);
}

class Lines {
  readonly lines: string[] = [''];
  /** The indentation of the line being written. */
  indent = 0;

  newline(indent: number): void {
    this.lines.push('  '.repeat(indent));
    this.indent = indent;
  }

  write(text: string): void {
    // No white space at the start of a line.
    if (this.lines.at(-1)!.trim() === '' && /^\s+$/.test(text)) return;
    this.lines[this.lines.length - 1] += text;
  }
}

/** A statement's items (or a subquery's), its clauses on lines at `indent`. */
function writeStatement(items: Item[], indent: number, out: Lines): void {
  const sig = items.filter(significant);
  const first = word(sig[0]);
  for (let i = 0, n = -1; i < items.length; i++) {
    const item = items[i]!;
    if (!significant(item)) {
      // The spaces before a break, or before a statement separator's next statement, go.
      const following = items.slice(i + 1).find(significant);
      if (following && !startsClause(sig, n + 1, first) && !isSemicolon(sig[n])) out.write((item as Token).text);
      continue;
    }
    n++;
    if (startsClause(sig, n, first) || isSemicolon(sig[n - 1])) out.newline(indent);
    writeItem(item, out);
  }
}

/** An item within a line: a subquery opens lines of its own, a group's items follow inline. */
function writeItem(item: Item, out: Lines): void {
  if (!isGroup(item)) return out.write(item.text);
  const indent = out.indent;
  out.write(item.open);
  if (isSubquery(item)) {
    out.newline(indent + 1);
    writeStatement(item.items, indent + 1, out);
    if (item.close) out.newline(indent);
  } else {
    for (const inner of item.items) writeItem(inner, out);
  }
  out.write(item.close);
}

const stripped = (text: string): string => text.replace(/\s+/g, '');

/**
 * A golden file's text (or an engine's one-line statements) laid out: comment lines as they
 * are, each other line a statement, written one clause per line.
 */
export function formatSql(text: string, dialect: SqlDialect): string {
  const out: string[] = [];
  let line: Token[] = [];
  const flush = () => {
    if (line.length === 1 && line[0]!.kind === 'comment') out.push(line[0]!.text);
    else {
      const lines = new Lines();
      writeStatement(nest(line), 0, lines);
      out.push(lines.lines.map((l) => l.trimEnd()).join('\n'));
    }
    line = [];
  };
  for (const t of tokenize(text, dialect)) {
    if (t.kind === 'newline') flush();
    else line.push(t);
  }
  flush();
  const formatted = out.join('\n');
  if (stripped(formatted) !== stripped(text)) throw new Error(`formatSql changed more than white space in:\n${text}`);
  return formatted;
}
