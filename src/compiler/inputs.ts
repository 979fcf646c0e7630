/**
 * Argument values of a query as trees in which variables stay references until a
 * consumer decides: a scalar compared in SQL stays a bound parameter (only whether
 * it is null shapes the plan); anything else is compiled in, and its value becomes
 * part of the plan's cache key.
 */
import { Kind, type ValueNode } from 'graphql';
import type { Value } from '../ir/boolexp.js';
import type { ShapeVariable } from '../protocol/plan.js';
import { RequestError } from '../errors/request.js';

export class VarRef {
  constructor(readonly name: string) {}
}

export type InputTree = null | boolean | number | string | VarRef | InputTree[] | { [k: string]: InputTree } | EnumName;

/** An enum value written in the query (as opposed to a string literal). */
export class EnumName {
  constructor(readonly name: string) {}
}

export class Inputs {
  private readonly shape = new Map<string, ShapeVariable['mode']>();

  constructor(readonly variables: Record<string, unknown>) {}

  tree(node: ValueNode): InputTree {
    switch (node.kind) {
      case Kind.VARIABLE:
        return new VarRef(node.name.value);
      case Kind.INT:
        return Number(node.value);
      case Kind.FLOAT:
        return Number(node.value);
      case Kind.STRING:
        return node.value;
      case Kind.BOOLEAN:
        return node.value;
      case Kind.NULL:
        return null;
      case Kind.ENUM:
        return new EnumName(node.value);
      case Kind.LIST:
        return node.values.map((v) => this.tree(v));
      case Kind.OBJECT:
        return Object.fromEntries(node.fields.map((f) => [f.name.value, this.tree(f.value)]));
    }
  }

  /** The plain value, variables substituted (and recorded as shaping the plan). */
  resolve(t: InputTree): unknown {
    if (t instanceof VarRef) {
      this.shape.set(t.name, 'value');
      return this.variables[t.name] ?? null;
    }
    if (t instanceof EnumName) return t.name;
    if (Array.isArray(t)) return t.map((x) => this.resolve(x));
    if (t !== null && typeof t === 'object') return Object.fromEntries(Object.entries(t).map(([k, v]) => [k, this.resolve(v)]));
    return t;
  }

  /** An object: a variable holding one is compiled in. */
  object(t: InputTree, path: string): Record<string, InputTree> | null {
    if (t instanceof VarRef) {
      const v = this.resolve(t);
      if (v === null) return null;
      if (typeof v !== 'object' || Array.isArray(v)) throw new RequestError(`expected an object for variable "${t.name}"`, path);
      return v as Record<string, InputTree>;
    }
    if (t === null) return null;
    if (typeof t !== 'object' || Array.isArray(t) || t instanceof EnumName) throw new RequestError('expected an object', path);
    return t as Record<string, InputTree>;
  }

  /** A list: a single value stands for a one-element list (GraphQL input coercion). */
  list(t: InputTree): InputTree[] | null {
    const v = t instanceof VarRef ? this.resolve(t) : t;
    if (v === null) return null;
    return Array.isArray(v) ? (v as InputTree[]) : [v as InputTree];
  }

  /**
   * A scalar compared in SQL: a variable stays a parameter. Null (literal or variable)
   * gives null: the caller drops the comparison, as the well-known engine does.
   */
  scalar(t: InputTree): Value | null {
    if (t instanceof VarRef) {
      const v = this.variables[t.name];
      if (!this.shape.has(t.name)) this.shape.set(t.name, 'nullness');
      if (v === null || v === undefined) return null;
      return { kind: 'variable', name: t.name, path: [] };
    }
    const v = this.resolve(t);
    return v === null ? null : { kind: 'literal', value: v as never, query: true };
  }

  shapeVariables(): ShapeVariable[] {
    return [...this.shape].map(([name, mode]) => ({ name, mode })).sort((a, b) => (a.name < b.name ? -1 : 1));
  }
}
