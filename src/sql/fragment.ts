/**
 * SQL as immutable values. Text only enters through the `sql` template's literal
 * parts, `ident()` (always quoted) and `raw()` (loud, for fixed keywords); every value
 * becomes a placeholder bound to a parameter source at render time. The values are
 * neutral: a backend's `Dialect` writes its placeholders and inlined literals.
 */
const BRAND = Symbol('sql');

export interface Sql {
  readonly [BRAND]: true;
  readonly parts: readonly Part[];
}

/** Where a parameter's value comes from when a plan is executed. */
export type ParamSource =
  /**
   * Known at compile time (literals of the query or the metadata), as PostgreSQL text or JSON.
   * `query`: a value written in the request where a variable could stand (a scalar, or a
   * list of them), which a subscription's statement binds (a synthetic variable) rather than
   * inlines; see `render`.
   */
  | { kind: 'literal'; value: unknown; query?: true }
  /** A GraphQL variable: `path` into it, coerced as `coerce` says. */
  | { kind: 'variable'; name: string; path: (string | number)[]; coerce: VariableCoercion }
  /** The request's session variables as one JSON object. */
  | { kind: 'session' }
  /** Mutations: a column of a row returned by an earlier statement of the same field. */
  | { kind: 'ref'; op: number; row: number; column: string }
  /** Mutations: that column of every row returned by the given statements, as an array. */
  | { kind: 'collect'; ops: number[]; column: string }
  /** Mutations: how many rows the earlier statements of the field returned. */
  | { kind: 'affected' }
  /** Joins: the key tuples collected from the parent step's rows, as one JSON array (see `StepJoin`). */
  | { kind: 'join-keys' }
  /** A streaming subscription's cursor: its cohort's current value, as text (`CohortValues.cursor`). */
  | { kind: 'cursor' };

/** How a variable's JSON value becomes a parameter. */
export type VariableCoercion = 'scalar' | 'json' | 'array';

type Part = string | { param: ParamSource };

const make = (parts: Part[]): Sql => Object.freeze({ [BRAND]: true as const, parts: Object.freeze(parts) });

export const isSql = (v: unknown): v is Sql => typeof v === 'object' && v !== null && BRAND in v;

export function sql(strings: TemplateStringsArray, ...values: (Sql | ParamSource)[]): Sql {
  const parts: Part[] = [];
  strings.forEach((s, i) => {
    if (s) parts.push(s);
    if (i < values.length) {
      const v = values[i]!;
      if (isSql(v)) parts.push(...v.parts);
      else parts.push({ param: v });
    }
  });
  return make(parts);
}

export function ident(name: string): Sql {
  return make(['"' + name.replace(/"/g, '""') + '"']);
}

export function qualified(schema: string, name: string): Sql {
  return make([`${ident(schema).parts[0]}.${ident(name).parts[0]}`]);
}

/** Fixed SQL text chosen by the compiler (keywords, operators, type names from the catalog). */
export function raw(text: string): Sql {
  return make([text]);
}

/** A value known at compile time (JSON keys, type names, DML values): the dialect inlines it as a literal. */
export const literal = (value: unknown): Sql => make([{ param: { kind: 'literal', value } }]);
export const paramFrom = (source: ParamSource): Sql => make([{ param: source }]);

export function join(items: readonly Sql[], separator: string): Sql {
  const parts: Part[] = [];
  items.forEach((item, i) => {
    if (i > 0) parts.push(separator);
    parts.push(...item.parts);
  });
  return make(parts);
}

export interface Rendered {
  text: string;
  params: ParamSource[];
}

/** How a backend writes what the neutral fragments leave open. */
export interface Dialect {
  /** The placeholder of the n-th parameter (1-based). */
  placeholder(n: number): string;
  /**
   * A value known at compile time as SQL text (a string, a number or boolean, null, or
   * an array of them). Inlined rather than bound, the planner sees it.
   */
  literal(value: unknown): string;
}

/**
 * Numbers placeholders in order; identical session params share one placeholder; literals are
 * inlined, except, with `liftQueryLiterals` (subscriptions), the query's own values, which
 * become parameters ("synthetic variables") so that requests differing only in them render
 * the same text.
 */
export function render(s: Sql, dialect: Dialect, liftQueryLiterals = false): Rendered {
  let text = '';
  const params: ParamSource[] = [];
  let session = 0;
  for (const p of s.parts) {
    if (typeof p === 'string') {
      text += p;
    } else if (p.param.kind === 'literal' && !(liftQueryLiterals && p.param.query)) {
      text += dialect.literal(p.param.value);
    } else if (p.param.kind === 'session') {
      if (!session) {
        params.push(p.param);
        session = params.length;
      }
      text += dialect.placeholder(session);
    } else {
      params.push(p.param);
      text += dialect.placeholder(params.length);
    }
  }
  return { text, params };
}
