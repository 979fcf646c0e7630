/**
 * Copy-on-write drafts of frozen JSON-like data (plain objects and arrays). A command
 * mutates a draft as if it were a private deep copy; `finish` returns the new value, in
 * which only the objects on the path of a change are new and everything else is shared
 * with the base (structural sharing). A permission change on a 36 MiB document copies a
 * few small objects instead of the whole document.
 *
 * The invariant that makes sharing safe: committed data is frozen (`deepFreeze` once at
 * load, `finish` freezes what it creates), so a frozen object can hold no draft and can
 * never change under a reader. Objects a command creates are not frozen until `finish`;
 * they are its own to mutate. After `finish` every draft proxy of the session is revoked,
 * so a stale one fails loudly instead of writing into shared data.
 */
import { isParsedWhenRead } from './lazy-json.js';

const STATE = Symbol('draft state');

interface State {
  base: object;
  /** A shallow copy once anything below was handed out or changed; holds child drafts. */
  copy: Record<PropertyKey, unknown> | null;
  /**
   * The keys of the copy that were written (a value, a child draft, a deletion): every other key
   * holds the base's own frozen value, so `finish` looks at these only (a permission change
   * copies a 5,000-entry table list and writes one place of it). Made with the copy.
   */
  touched: Set<PropertyKey> | null;
  modified: boolean;
  parent: State | null;
  /** Memoised result of `finish` (a draft may be reachable twice). */
  result?: object;
}

const isDraftable = (v: unknown): v is object => {
  if (typeof v !== 'object' || v === null) return false;
  if (Array.isArray(v)) return true;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

const stateOf = (v: unknown): State | undefined => (typeof v === 'object' && v !== null ? (v as Record<symbol, State | undefined>)[STATE] : undefined);

export const isDraft = (v: unknown): boolean => stateOf(v) !== undefined;

/** The committed (frozen) object behind a draft nothing was changed in, else the value itself. */
export function unchanged<T>(v: T): T {
  const state = stateOf(v);
  return state && !state.modified ? (state.base as T) : v;
}

/**
 * What a draft holds now, for reading only: its fields are the base's frozen objects or the
 * drafts already handed out (a search through the draft itself makes a draft of every element
 * it looks at: thousands, to find one table entry); not a draft: the value itself.
 */
export function current<T>(v: T): T {
  const state = stateOf(v);
  return state ? ((state.copy ?? state.base) as T) : v;
}

/**
 * Freezes a value and everything under it (already frozen parts are skipped: they are frozen
 * through). Only objects are stacked, and arrays are walked by index: a whole snapshot's 5,000
 * table entries are frozen as the schema builder reads them, before the first request after a
 * replace can be answered.
 */
export function deepFreeze<T>(value: T): T {
  if (!isDraftable(value) || Object.isFrozen(value)) return value;
  const stack: object[] = [value];
  const visit = (v: unknown) => {
    if (typeof v === 'object' && v !== null && !Object.isFrozen(v) && isDraftable(v)) stack.push(v);
  };
  while (stack.length > 0) {
    const v = stack.pop()!;
    Object.freeze(v);
    if (Array.isArray(v)) for (let i = 0; i < v.length; i++) visit(v[i]);
    else for (const k in v) visit((v as Record<string, unknown>)[k]);
  }
  return value;
}

export class DraftSession {
  private readonly revokers: (() => void)[] = [];
  private finished = false;

  /** A draft of frozen `base`. */
  draft<T extends object>(base: T): T {
    return this.proxy(base, null) as T;
  }

  /**
   * The value with every draft in it replaced by its result, frozen; unchanged parts are
   * the base's own objects. Ends the session.
   */
  finish<T>(value: T): T {
    if (this.finished) throw new Error('draft session already finished');
    const out = finalize(value) as T;
    this.finished = true;
    for (const revoke of this.revokers) revoke();
    return out;
  }

  private proxy(base: object, parent: State | null): object {
    if (!Object.isFrozen(base)) throw new Error('a draft needs a frozen base');
    const state: State = { base, copy: null, touched: null, modified: false, parent };
    const source = () => (state.copy ?? base) as Record<PropertyKey, unknown>;
    const prepareCopy = (prop: PropertyKey) => {
      state.copy ??= (Array.isArray(base) ? base.slice() : { ...base }) as Record<PropertyKey, unknown>;
      (state.touched ??= new Set()).add(prop);
      return state.copy;
    };
    const markModified = () => {
      for (let s: State | null = state; s && !s.modified; s = s.parent) s.modified = true;
    };
    const handler: ProxyHandler<object> = {
      get: (_t, prop) => {
        if (prop === STATE) return state;
        const src = source();
        const value = src[prop];
        if (!Object.prototype.hasOwnProperty.call(src, prop) || !isDraftable(value) || isDraft(value) || !Object.isFrozen(value)) return value;
        // A shared (frozen) object reached through the draft becomes a draft itself, kept in the copy.
        const child = this.proxy(value, state);
        prepareCopy(prop)[prop] = child;
        return child;
      },
      set: (_t, prop, value) => {
        const src = source();
        if (Object.prototype.hasOwnProperty.call(src, prop) && src[prop] === value) return true;
        prepareCopy(prop)[prop] = value;
        markModified();
        return true;
      },
      deleteProperty: (_t, prop) => {
        if (!Object.prototype.hasOwnProperty.call(source(), prop)) return true;
        delete prepareCopy(prop)[prop];
        markModified();
        return true;
      },
      defineProperty: (_t, prop, desc) => {
        if (!('value' in desc)) throw new Error('drafts hold data properties only');
        prepareCopy(prop)[prop] = desc.value;
        markModified();
        return true;
      },
      has: (_t, prop) => prop in source(),
      ownKeys: () => Reflect.ownKeys(source()),
      getOwnPropertyDescriptor: (_t, prop) => {
        const src = source();
        if (!Object.prototype.hasOwnProperty.call(src, prop)) return undefined;
        // An array's `length` is what the proxy target (an empty array) has: not configurable.
        if (Array.isArray(src) && prop === 'length') return { value: src.length, writable: true, enumerable: false, configurable: false };
        return { value: handler.get!(_t, prop, undefined), writable: true, enumerable: true, configurable: true };
      },
      getPrototypeOf: () => Object.getPrototypeOf(base),
      setPrototypeOf: () => false,
      preventExtensions: () => false,
    };
    const { proxy, revoke } = Proxy.revocable(Array.isArray(base) ? [] : {}, handler);
    this.revokers.push(revoke);
    return proxy;
  }
}

function finalize(value: unknown): unknown {
  const state = stateOf(value);
  if (state) {
    if (state.result) return state.result;
    if (!state.modified) return (state.result = state.base);
    const copy = state.copy!;
    state.result = copy;
    const changed: PropertyKey[] = [];
    for (const k of state.touched!) {
      if (!Object.prototype.hasOwnProperty.call(copy, k)) {
        if (Object.prototype.hasOwnProperty.call(state.base, k)) changed.push(k);
        continue;
      }
      const v = copy[k];
      const done = finalize(v);
      if (done !== v) copy[k] = done;
      if (done !== (state.base as Record<PropertyKey, unknown>)[k]) changed.push(k);
    }
    lineage.set(copy, { base: new WeakRef(state.base), keys: changed });
    return Object.freeze(copy);
  }
  // A frozen value holds no drafts; a new one (made by the command) may.
  if (!isDraftable(value) || Object.isFrozen(value)) return value;
  if (isParsedWhenRead(value)) return finalize(Array.from(value));
  const obj = value as Record<string, unknown>;
  finalizeFields(obj);
  return Object.freeze(obj);
}

/** Each field finalized; written back only where it changed (a replaced document is millions of fields). */
function finalizeFields(obj: Record<PropertyKey, unknown>): void {
  for (const k of Object.keys(obj)) {
    const v = obj[k];
    const done = finalize(v);
    if (done !== v) obj[k] = done;
  }
}

/**
 * What `finish` made each changed draft into: its base (weakly: a chain of versions is not kept
 * alive by it) and the keys at which it differs from that base.
 */
const lineage = new WeakMap<object, { base: WeakRef<object>; keys: readonly PropertyKey[] }>();

/** How many finishes back `changedKeys` follows a value's bases (a bulk of changes, a cascade, the normal form). */
const MAX_STEPS = 16;

/**
 * The keys at which `next` differs from `prev` when `next` was made from `prev` by drafts (a few
 * finishes apart; an array's `length` may be left out: compare lengths), else null: unknown, compare everything. Readers of a new version use it to
 * look at what a change touched instead of walking all of it (a permission change at 5,000
 * tables makes a table list that differs from the last one in one place).
 */
export function changedKeys(prev: object, next: object): PropertyKey[] | null {
  return changedKeysSince(next, (o) => o === prev)?.keys ?? null;
}

/** The nearest value `next` was made from by drafts that `known` accepts (itself included, with no keys), and the keys changed since. */
export function changedKeysSince<T extends object>(next: T, known: (o: T) => boolean): { base: T; keys: PropertyKey[] } | null {
  const keys = new Set<PropertyKey>();
  let at: object = next;
  for (let step = 0; ; step++) {
    if (known(at as T)) return { base: at as T, keys: [...keys] };
    const l = step < MAX_STEPS ? lineage.get(at) : undefined;
    const base = l?.base.deref();
    if (!l || !base) return null;
    for (const k of l.keys) keys.add(k);
    at = base;
  }
}

/** `recipe` applied to a draft of frozen `base`; the result shares what the recipe did not touch. */
export function produce<T extends object>(base: T, recipe: (draft: T) => void): T {
  const session = new DraftSession();
  const draft = session.draft(base);
  recipe(draft);
  return session.finish(draft);
}
