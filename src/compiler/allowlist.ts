/**
 * The allow-list (spec "Query collections and allow-list"): which documents a role may run
 * when it is enabled. Documents are compared as the well-known engine compares them, parsed:
 * whitespace, comments and `__typename` fields do not count; operation names, aliases, field
 * order and arguments do (arguments and input object fields by name, in any order: its
 * parsed arguments are maps). Built once per snapshot; a request's document is normalised
 * only when its plan is compiled (the verdict is cached with the plan, or as a refusal).
 */
import { Kind, type DocumentNode } from 'graphql';
import { allowlist, queryCollections } from '../metadata/query-collections.js';
import type { Metadata } from '../metadata/types.js';
import { parseDocument } from './document-limits.js';
import { RequestError } from '../errors/request.js';

type Node = { kind?: string; name?: { value: string }; [key: string]: unknown };

const byName = (a: Node, b: Node) => (a.name!.value < b.name!.value ? -1 : a.name!.value > b.name!.value ? 1 : 0);

/** A node as plain data without locations, `__typename` fields left out and maps sorted (nesting is bounded by parseDocument). */
function normalized(v: unknown): unknown {
  if (Array.isArray(v)) return v.filter((n: Node) => !(n?.kind === Kind.FIELD && n.name!.value === '__typename')).map(normalized);
  if (typeof v !== 'object' || v === null) return v;
  const node = v as Node;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(node)) {
    if (k === 'loc' || k === 'block') continue;
    const sorted = (k === 'arguments' || (k === 'fields' && node.kind === Kind.OBJECT)) && Array.isArray(x) ? [...(x as Node[])].sort(byName) : x;
    out[k] = normalized(sorted);
  }
  return out;
}

export function normalizedQuery(doc: DocumentNode): string {
  return JSON.stringify(normalized(doc));
}

/** The allow-list's refusal: cached by the plan lookup like a plan, until the allow-list changes. */
export class NotAllowedError extends RequestError {
  constructor() {
    super('query is not allowed', '$', 'validation-failed');
  }
}

export class Allowlist {
  private readonly global = new Set<string>();
  private readonly byRole = new Map<string, Set<string>>();

  constructor(m: Metadata) {
    const collections = new Map(queryCollections(m).map((c) => [c.name, c]));
    for (const entry of allowlist(m)) {
      const targets = !entry.scope.global ? entry.scope.roles.map((r) => this.byRole.get(r) ?? this.byRole.set(r, new Set()).get(r)!) : [this.global];
      for (const q of collections.get(entry.collection)?.definition.queries ?? []) {
        const text = normalizedOf(q.query);
        if (text !== null) for (const t of targets) t.add(text);
      }
    }
  }

  allows(role: string, doc: DocumentNode): boolean {
    const text = normalizedQuery(doc);
    return this.global.has(text) || (this.byRole.get(role)?.has(text) ?? false);
  }
}

/** A stored query's normal form; null for one beyond the request limits (no request can match it). */
function normalizedOf(query: string): string | null {
  try {
    return normalizedQuery(parseDocument(query));
  } catch (e) {
    if (e instanceof RequestError) return null;
    throw e;
  }
}

let current: { collections: unknown; entries: unknown; allowlist: Allowlist } | null = null;

/** The allow-list of a (frozen) document, built again only when one of its two sections is another object. */
export function allowlistOf(m: Metadata): Allowlist {
  if (current && current.collections === m.query_collections && current.entries === m.allowlist) return current.allowlist;
  current = { collections: m.query_collections, entries: m.allowlist, allowlist: new Allowlist(m) };
  return current.allowlist;
}
