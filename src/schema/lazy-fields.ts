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
  private unbuilt = 0;

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

  /** Makes every group's fields. */
  buildAll(): void {
    const fields = this.getFields();
    if (this.unbuilt > 0) Object.values(fields);
  }

  private define(): GraphQLFieldMap<unknown, unknown> {
    const owner = new Map<string, FieldGroup>();
    for (const g of this.groups()) for (const name of g.names) owner.set(name, g);
    const names = [...owner.keys()];
    if (this.sorted) names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const map = Object.create(null) as GraphQLFieldMap<unknown, unknown>;
    const build = (group: FieldGroup) => {
      const fields = objectType({ name: this.name, fields: group.make() }).getFields();
      for (const name of group.names) {
        if (owner.get(name) !== group) continue;
        const field = fields[name];
        if (!field) throw new Error(`field group of ${this.name} did not make its field ${name}`);
        // Redefined in place: the name keeps its position among the keys.
        Object.defineProperty(map, name, { value: field, enumerable: true, writable: true, configurable: true });
        this.built.push(field);
      }
      this.unbuilt--;
    };
    for (const name of names) {
      const group = owner.get(name)!;
      Object.defineProperty(map, name, {
        get: () => {
          build(group);
          return map[name];
        },
        enumerable: true,
        configurable: true,
      });
    }
    // A group none of whose names it owns is never made.
    this.unbuilt = new Set(owner.values()).size;
    return map;
  }
}
