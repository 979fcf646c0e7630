/**
 * Binding a plan's parameters for one request: variables checked against their
 * declared types (built-in scalars here; everything else was checked when the value
 * was compiled in), session variables as one JSON parameter.
 */
import type { TagContext } from './query-tags.js';
import { RequestError } from '../errors/request.js';
import type { Plan, VariableSpec } from '../protocol/plan.js';
import type { ParamSource } from '../sql/fragment.js';
import type { StatementDeadline } from '../backends/faces/runtime.js';

const INT_MAX = 2 ** 31 - 1;

function checkScalar(type: string, v: unknown, name: string): void {
  const bad = (expected: string) => new RequestError(`variable ${JSON.stringify(name)} expects ${expected}, but got ${JSON.stringify(v)}`, `$.variableValues.${name}`);
  switch (type) {
    case 'Int':
      if (typeof v !== 'number' || !Number.isInteger(v) || v > INT_MAX || v < -INT_MAX - 1) throw bad('a 32-bit integer');
      return;
    case 'Float':
      if (typeof v !== 'number') throw bad('a number');
      return;
    case 'String':
    case 'ID':
      if (typeof v !== 'string' && !(type === 'ID' && typeof v === 'number')) throw bad('a string');
      return;
    case 'Boolean':
      if (typeof v !== 'boolean') throw bad('a boolean');
      return;
  }
}

type Check = (v: unknown, name: string) => void;

/** A variable type's check, made once: the type text is read here, not on every request. */
function compileCheck(type: string): Check {
  const nonNull = type.endsWith('!');
  const inner = nonNull ? type.slice(0, -1) : type;
  const element = inner.startsWith('[') ? compileCheck(inner.slice(1, -1)) : null;
  return (v, name) => {
    if (v === null || v === undefined) {
      if (nonNull) throw new RequestError(`expecting a value for non-nullable variable: ${JSON.stringify(name)}`, '$.variableValues');
      return;
    }
    if (element === null) checkScalar(inner, v, name);
    else if (Array.isArray(v)) for (const x of v) element(x, name);
    else element(v, name);
  };
}

/** Each plan's variables' checks, kept as long as the plan is. */
const checks = new WeakMap<VariableSpec, Check>();

function checkOf(spec: VariableSpec): Check {
  let check = checks.get(spec);
  if (check === undefined) {
    check = compileCheck(spec.type);
    checks.set(spec, check);
  }
  return check;
}

/** The request's variables, checked; a copy with the defaults applied when one is missing, else the same object. */
export function checkVariables(specs: VariableSpec[], given: Record<string, unknown>): Record<string, unknown> {
  let out = given;
  for (const s of specs) {
    if (out[s.name] === undefined && s.hasDefault) {
      // Copied by a loop: V8 adds a property to a spread's copy on a slow path (about 1 µs).
      if (out === given) {
        out = {};
        for (const name in given) out[name] = given[name];
      }
      out[s.name] = s.defaultValue;
    }
    checkOf(s)(out[s.name], s.name);
  }
  return out;
}

function at(v: unknown, path: (string | number)[]): unknown {
  let cur = v;
  for (const p of path) cur = cur === null || cur === undefined ? undefined : (cur as Record<string | number, unknown>)[p];
  return cur;
}

function encodeScalar(v: unknown): unknown {
  if (v === null || v === undefined || typeof v === 'string') return v ?? null;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/** Rows returned by the earlier statements of a mutation field (all values as text). */
export interface MutationRows {
  rows: Record<string, string | null>[][];
  affected: number;
}

/** What a step's parameters are bound from. */
/** Also what the request's statements are tagged with (query-tags.ts). */
export interface BindContext extends TagContext {
  /** The request's variables, checked, defaults applied. */
  variables: Record<string, unknown>;
  /** The session variables as one JSON text. */
  sessionJson: string;
  /** A mutation field's earlier statements. */
  earlier?: MutationRows;
  /** A join step's key tuples as one JSON text. */
  joinKeys?: string;
  /** A streaming subscription's cohort's cursor value. */
  cursor?: string | null;
  /** The request's time limit: statements still running when it passes are cancelled. */
  deadline?: StatementDeadline;
}

export function bindParams(params: ParamSource[], ctx: BindContext): unknown[] {
  return params.map((p) => {
    switch (p.kind) {
      case 'ref':
        return ctx.earlier?.rows[p.op]?.[p.row]?.[p.column] ?? null;
      case 'collect':
        return p.ops.flatMap((op) => (ctx.earlier?.rows[op] ?? []).map((r) => r[p.column] ?? null));
      case 'affected':
        return String(ctx.earlier?.affected ?? 0);
      case 'join-keys':
        return ctx.joinKeys ?? '[]';
      case 'cursor':
        return ctx.cursor ?? null;
      case 'literal':
        return p.value;
      case 'session':
        return ctx.sessionJson;
      case 'variable': {
        const v = at(ctx.variables[p.name], p.path);
        if (p.coerce === 'array') return Array.isArray(v) ? v.map(encodeScalar) : v === null || v === undefined ? null : [encodeScalar(v)];
        return p.coerce === 'json' ? JSON.stringify(v ?? null) : encodeScalar(v);
      }
    }
  });
}

/** A request missing a session variable the plan reads is refused before running anything. */
export function checkSession(plan: Plan, session: Record<string, string>): void {
  const missing = plan.sessionVariables.filter((name) => session[name] === undefined);
  if (missing.length === 0) return;
  // The well-known engine words it differently for queries and mutations.
  if (plan.operation === 'mutation') throw new RequestError(`missing session variable: ${JSON.stringify(missing[0])}`, '$', 'not-found');
  throw new RequestError(`missing session variables: ${missing.map((n) => JSON.stringify(n)).join(', ')}`, '$', 'not-found');
}
