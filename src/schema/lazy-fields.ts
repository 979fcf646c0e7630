/**
 * An object type whose fields are made a group at a time, when one of them is first read: a
 * root type at 5,000 tables has 15,000 fields whose arguments need each table's bool_exp,
 * order_by and select_column types (0.3 s and tens of MiB per role), while a request reads a
 * few of them. Its field names are known up front (lazy-schema.ts lists them, validation looks
 * them up); a group's configs are made on first read of any of its names, and turned into
 * graphql-js fields by graphql-js itself (a type of that group alone).
 */
import { GraphQLObjectType, type GraphQLField, type GraphQLFieldConfig, type GraphQLFieldConfigMap, type GraphQLFieldMap } from 'graphql';
import { objectType } from './graphql-types.js';

type FieldConfig = GraphQLFieldConfig<unknown, unknown>;

/** Fields named up front (`names`, as `make` will name them) and made together. */
export interface FieldGroup {
  readonly names: readonly string[];
  make(): GraphQLFieldConfigMap<unknown, unknown>;
}

/** A group of fields made one by one: each maker makes its named field. */
export function fieldGroup(makers: readonly (readonly [string, () => FieldConfig])[]): FieldGroup {
  return { names: makers.map(([name]) => name), make: () => Object.fromEntries(makers.map(([name, make]) => [name, make()])) };
}

/** A group of fields made already. */
export function madeFields(configs: GraphQLFieldConfigMap<unknown, unknown>): FieldGroup {
  return { names: Object.keys(configs), make: () => configs };
}

export class LazyFieldsType extends GraphQLObjectType {
  private map: GraphQLFieldMap<unknown, unknown> | null = null;
  private readonly built: GraphQLField<unknown, unknown>[] = [];
  /** The fields made so far, by name (what the map's reads return). */
  private readonly made = new Map<string, GraphQLField<unknown, unknown>>();
  private list: readonly FieldGroup[] = [];
  /** Each name's group (the last one naming it), and the groups not made yet. */
  private readonly owner = new Map<string, FieldGroup>();
  private readonly pending = new Set<FieldGroup>();

  /**
   * `groups` are named on the first `getFields` (the query root's on its first use). `sorted`:
   * fields in name order (the roots'); otherwise in the groups' order. A name in two groups is
   * the later one's.
   */
  constructor(
    name: string,
    private readonly groups: () => readonly FieldGroup[],
    private readonly sorted: boolean,
  ) {
    super({ name, fields: {} });
  }

  override getFields(): GraphQLFieldMap<unknown, unknown> {
    return (this.map ??= this.define());
  }

  /** The fields made so far (what a walk over forced fields only may follow). */
  builtFields(): readonly GraphQLField<unknown, unknown>[] {
    return this.built;
  }

  /** Makes every group's fields, at once (introspection reads them all). */
  buildAll(): void {
    this.getFields();
    if (this.pending.size > 0) this.build(this.list.filter((g) => this.pending.has(g)));
  }

  /**
   * The field map: a proxy that names every field and makes a group on the first read of one of
   * its names. Its 15,000 names at 5,000 tables were each defined as a getter on the map, 30 ms
   * of the first request of a role; here a name is only looked up, and the names are listed
   * (and sorted) only when the map is enumerated (introspection, a misspelt field's suggestions).
   */
  private define(): GraphQLFieldMap<unknown, unknown> {
    this.list = this.groups();
    for (const g of this.list) for (const name of g.names) this.owner.set(name, g);
    for (const g of this.owner.values()) this.pending.add(g);
    const made = this.made;
    let names: string[] | null = null;
    const field = (name: string | symbol): GraphQLField<unknown, unknown> | undefined => {
      if (typeof name !== 'string') return undefined;
      const group = this.owner.get(name);
      if (group && this.pending.has(group)) this.build([group]);
      return made.get(name);
    };
    return new Proxy(Object.create(null) as GraphQLFieldMap<unknown, unknown>, {
      get: (_, name) => field(name),
      has: (_, name) => typeof name === 'string' && this.owner.has(name),
      ownKeys: () => (names ??= this.sorted ? [...this.owner.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) : [...this.owner.keys()]),
      // Listing the names (Object.keys) makes no field: a name not made yet is an accessor that makes it.
      getOwnPropertyDescriptor: (_, name) => {
        if (typeof name !== 'string' || !this.owner.has(name)) return undefined;
        const f = made.get(name);
        return f ? { value: f, writable: true, enumerable: true, configurable: true } : { get: () => field(name), enumerable: true, configurable: true };
      },
    });
  }

  /** Makes these groups' fields (in the groups' order: a name's last group wins), which the map then reads. */
  private build(groups: FieldGroup[]): void {
    const fields = objectType({ name: this.name, fields: Object.assign({}, ...groups.map((g) => g.make())) }).getFields();
    for (const group of groups) {
      for (const name of group.names) {
        if (this.owner.get(name) !== group) continue;
        const field = fields[name];
        if (!field) throw new Error(`field group of ${this.name} did not make its field ${name}`);
        this.made.set(name, field);
        this.built.push(field);
      }
      this.pending.delete(group);
    }
  }
}
