/**
 * Evaluation of a parsed template against variable bindings, after Kriti's `Kriti/Eval.hs`:
 * the same checks, in the same order, with the same messages and spans (typos included,
 * since clients match on them), so the first failing check is the one reported.
 */
import { templateError, type Span, type TemplateError, type TemplateErrorCode } from './errors.js';
import type { TemplateFunction } from './functions.js';
import { encodeJson, isJsonObject, jsonCompare, jsonEqual, lookupKey, typeName, type JsonObject, type JsonValue } from './json.js';
import type { Accessor, Node } from './parser.js';
import { compareText } from './text.js';

export type Bindings = ReadonlyMap<string, JsonValue>;
export type EvalResult = { ok: true; value: JsonValue } | { ok: false; error: TemplateError };

class EvalFailure {
  constructor(readonly error: TemplateError) {}
}

function fail(code: TemplateErrorCode, message: string, span: Span): never {
  throw new EvalFailure(templateError(code, message, span));
}

function typeError(span: Span, actual: JsonValue, expected: string): never {
  return fail('Type Error', `Couldn't matche expected type '${expected}' with actual type '${typeName(actual)}'`, span);
}

export function evaluate(ast: Node, bindings: Bindings, functions: ReadonlyMap<string, TemplateFunction>): EvalResult {
  try {
    return { ok: true, value: new Evaluator(functions).eval(ast, bindings) };
  } catch (e) {
    if (e instanceof EvalFailure) return { ok: false, error: e.error };
    throw e;
  }
}

class Evaluator {
  constructor(private readonly functions: ReadonlyMap<string, TemplateFunction>) {}

  eval(n: Node, scope: Bindings): JsonValue {
    const ev = (x: Node) => this.eval(x, scope);
    switch (n.kind) {
      case 'string':
      case 'number':
      case 'boolean':
        return n.value;
      case 'null':
        return null;
      case 'template':
        return n.parts.map((p) => ev(p)).map((v) => (typeof v === 'string' ? v : encodeJson(v))).join('');
      case 'array':
        return n.items.map(ev);
      case 'object':
        return this.object(n.fields, scope);
      case 'var': {
        const v = scope.get(n.name);
        return v !== undefined ? v : fail('Name Error', `Variable '${n.name}' not in scope`, n.span);
      }
      case 'field':
        return this.field(n.span, n.target, n.key, scope);
      case 'optional':
        return this.optional(n.target, n.path, scope);
      case 'if': {
        const c = ev(n.cond);
        return typeof c === 'boolean' ? ev(c ? n.then : n.else) : typeError(n.span, c, 'Boolean');
      }
      case 'binary':
        return this.binary(n, scope);
      case 'range': {
        const list = ev(n.list);
        if (!Array.isArray(list)) return typeError(n.span, list, 'Array');
        return list.map((item, i) => {
          const inner = new Map(scope).set(n.binder, item);
          if (n.index !== null) inner.set(n.index, i);
          return this.eval(n.body, inner);
        });
      }
      case 'call': {
        const arg = ev(n.arg);
        const f = this.functions.get(n.name);
        if (!f) return fail('Name Error', `Variable '${n.name}' not in scope`, n.span);
        const r = f(arg);
        return r.ok ? r.value : fail('Function Error', r.message, n.arg.span);
      }
    }
  }

  /**
   * Kriti builds the object from its fields in reverse, so of duplicate keys the first
   * is kept (and the others never evaluated); fields are evaluated in key order.
   */
  private object(fields: [string, Node][], scope: Bindings): JsonValue {
    const kept = new Map<string, Node>();
    for (const [k, v] of fields) if (!kept.has(k)) kept.set(k, v);
    const values = new Map<string, JsonValue>();
    for (const k of [...kept.keys()].sort(compareText)) values.set(k, this.eval(kept.get(k)!, scope));
    return Object.fromEntries([...kept.keys()].map((k) => [k, values.get(k)!]));
  }

  private field(span: Span, target: Node, key: Accessor, scope: Bindings): JsonValue {
    const t = this.eval(target, scope);
    const get = (o: JsonObject, k: string) => {
      const v = lookupKey(o, k);
      return v !== undefined ? v : fail('Attribute Error', `'Object' has no attribute '${k}'.`, span);
    };
    if (typeof key === 'string') return isJsonObject(t) ? get(t, key) : typeError(target.span, t, 'Object');
    if (isJsonObject(t)) {
      const k = this.eval(key, scope);
      return typeof k === 'string' ? get(t, k) : typeError(target.span, k, 'String');
    }
    if (Array.isArray(t)) {
      const i = this.eval(key, scope);
      if (typeof i !== 'number' || !Number.isInteger(i)) return typeError(span, i, 'Integer');
      // Kriti's serialised message for a bad index really is this one.
      return i >= 0 && i < t.length ? t[i]! : fail('Index Error', 'Can only range over an array', span);
    }
    return typeError(target.span, t, 'Object');
  }

  /** `target?.a.b`: any failure of `target` or a missing step gives `null`. */
  private optional(target: Node, path: Accessor[], scope: Bindings): JsonValue {
    let v: JsonValue;
    try {
      v = this.eval(target, scope);
    } catch (e) {
      if (!(e instanceof EvalFailure)) throw e;
      v = null;
    }
    const keys = path.map((a) => (typeof a === 'string' ? a : this.eval(a, scope)));
    if (v !== null && typeof v !== 'object') return typeError(target.span, v, 'Object');
    let cur: JsonValue | undefined = v;
    for (const k of keys) {
      if (cur === undefined || cur === null) break;
      if (typeof k === 'string' && isJsonObject(cur)) cur = lookupKey(cur, k);
      else if (typeof k === 'number' && Number.isInteger(k) && Array.isArray(cur)) cur = cur[k];
      else cur = undefined;
    }
    return cur ?? null;
  }

  private binary(n: Extract<Node, { kind: 'binary' }>, scope: Bindings): JsonValue {
    const l = this.eval(n.left, scope);
    if (n.op === '??') return l === null ? this.eval(n.right, scope) : l;
    const r = this.eval(n.right, scope);
    switch (n.op) {
      case '==':
        return jsonEqual(l, r);
      case '!=':
        return !jsonEqual(l, r);
      case '<':
        return jsonCompare(l, r) < 0;
      case '>':
        return jsonCompare(l, r) > 0;
      case '<=':
        return jsonCompare(l, r) <= 0;
      case '>=':
        return jsonCompare(l, r) >= 0;
      case '&&':
      case '||':
        if (typeof l === 'boolean' && typeof r === 'boolean') return n.op === '&&' ? l && r : l || r;
        return typeof r === 'boolean' ? typeError(n.span, l, 'Boolean') : typeError(n.span, r, 'Boolean');
      case 'in':
        if (isJsonObject(r)) return typeof l === 'string' ? Object.hasOwn(r, l) : typeError(n.span, l, 'String');
        if (Array.isArray(r)) return r.some((x) => jsonEqual(x, l));
        return typeError(n.span, r, 'Array');
    }
  }
}
