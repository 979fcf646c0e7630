/**
 * The types every role's schema of one snapshot may share, built once per snapshot (in each
 * compiler thread): a graphql-js type can sit in several schemas when it is the same in all of
 * them. Each is cached under its name plus everything its content is made of, and refers only
 * to other shared types. Here: `order_by`, enum tables' enums, comparison expressions and
 * function arguments; column-set-types.ts adds a table's types made from its visible columns.
 */
import { GraphQLString, type GraphQLEnumType, type GraphQLInputObjectType, type GraphQLNamedType, type GraphQLScalarType } from 'graphql';
import type { CatalogColumn, CatalogType, TypeFamily } from '../catalog/types.js';
import { comparisonFields, comparisonTypeFor } from './comparison.js';
import { enumType, inputObjectType } from './graphql-types.js';
import { tableKey } from '../catalog/types.js';
import type { EnumTableInfo, TableIdentity } from './model.js';
import type { SourceNaming } from './naming.js';
import { scalarOf, scalarType } from './scalars.js';
import type { TrackedTables } from './tracked-tables.js';

/** What `_cast` offers per column type family: the `<scalar>_cast_exp` field (the GraphQL scalar cast to) and that type's family. */
const CAST_TARGETS: Partial<Record<TypeFamily, { field: string; family: TypeFamily }>> = {
  'binary-json': { field: 'String', family: 'text' },
  geometry: { field: 'geography', family: 'geography' },
  geography: { field: 'geometry', family: 'geometry' },
};

export class SharedTypes {
  private readonly types = new Map<string, GraphQLNamedType>();

  constructor(readonly tracked: TrackedTables) {}

  /** The type cached under `key` (its kind, name and what else its content depends on), made by `make` the first time. */
  get<T extends GraphQLNamedType>(key: string, make: () => T): T {
    let t = this.types.get(key) as T | undefined;
    if (!t) {
      t = make();
      this.types.set(key, t);
    }
    return t;
  }

  /** `order_by` (or `OrderBy` with upper-case values under graphql-default). */
  orderByEnum(naming: SourceNaming): GraphQLEnumType {
    const name = naming.convention === 'graphql-default' ? 'OrderBy' : 'order_by';
    return this.get(`order_by\0${name}`, () => {
      const values: Record<string, { value: string; description: string }> = {};
      const add = (v: string, description: string) => (values[naming.enumValue(v)] = { value: v, description });
      add('asc', 'in ascending order, nulls last');
      add('asc_nulls_first', 'in ascending order, nulls first');
      add('asc_nulls_last', 'in ascending order, nulls last');
      add('desc', 'in descending order, nulls first');
      add('desc_nulls_first', 'in descending order, nulls first');
      add('desc_nulls_last', 'in descending order, nulls last');
      return enumType({ name, description: 'column ordering options', values });
    });
  }

  /** `cursor_ordering` (`CursorOrdering` under graphql-default): a streaming subscription's direction. */
  cursorOrderingEnum(naming: SourceNaming): GraphQLEnumType {
    // Like `order_by`, one type whatever the source's type name prefix and suffix.
    const name = naming.convention === 'graphql-default' ? 'CursorOrdering' : 'cursor_ordering';
    return this.get(`cursor_ordering\0${name}`, () =>
      enumType({
        name,
        description: 'ordering argument of a cursor',
        values: { ASC: { value: 'asc', description: 'ascending ordering of the cursor' }, DESC: { value: 'desc', description: 'descending ordering of the cursor' } },
      }),
    );
  }

  enumType(e: EnumTableInfo): GraphQLEnumType {
    const name = e.naming.typeName(e.identifier + '_enum');
    return this.get(`enum\0${name}`, () => {
      const values: Record<string, { value: string; description: string | null }> = {};
      for (const v of e.values) values[e.naming.enumValue(v.value)] = { value: v.value, description: v.comment };
      return enumType({ name, values });
    });
  }

  /** The enum table a column references through a foreign key, if any (its values become an enum). */
  private enumTableOf(t: Pick<TableIdentity, 'catalog' | 'source'>, c: CatalogColumn): EnumTableInfo | null {
    for (const fk of t.catalog.foreignKeys) {
      if (fk.columns.length !== 1 || fk.columns[0] !== c.name) continue;
      const e = this.tracked.enumTables.get(tableKey(t.source.name, fk.refTable));
      if (e) return e;
    }
    return null;
  }

  columnType(t: Pick<TableIdentity, 'catalog' | 'source'>, c: CatalogColumn): GraphQLScalarType | GraphQLEnumType {
    const e = this.enumTableOf(t, c);
    return e ? this.enumType(e) : scalarOf(c.type);
  }

  /** The `_comparison_exp` of a column's type. */
  columnComparison(t: Pick<TableIdentity, 'catalog' | 'source'>, c: CatalogColumn): GraphQLInputObjectType {
    return this.comparison(this.columnType(t, c), this.enumTableOf(t, c) ? 'other' : c.type.traits.family);
  }

  /** `<scalar>_comparison_exp`, one per scalar (or enum) type. */
  comparison(scalar: GraphQLScalarType | GraphQLEnumType, family: TypeFamily): GraphQLInputObjectType {
    return this.get(`comparison\0${scalar.name}`, () => {
      // `<scalar>_cast_exp`: the value compared as another type, as the well-known engine casts
      // (`{_cast: {String: {...}}}` on binary JSON, `{_cast: {geography: {...}}}` on geometry, and back).
      const to = CAST_TARGETS[family];
      const cast = to
        ? this.get(`cast\0${scalar.name}`, () => {
            const target = to.family === 'text' ? GraphQLString : scalarType(to.field);
            return inputObjectType({ name: `${scalar.name}_cast_exp`, fields: () => ({ [to.field]: { type: this.comparison(target, to.family) } }) });
          })
        : undefined;
      return comparisonTypeFor(`${scalar.name}_comparison_exp`, () => comparisonFields(family, scalar, { cast, scalarOf: scalarType }));
    });
  }

  /** `<fn>_args`: the arguments a caller gives, all nullable. */
  functionArgs(naming: SourceNaming, name: string, args: { name: string | null; type: CatalogType }[]): GraphQLInputObjectType {
    const typeName = naming.typeName(`${name}_args`);
    return this.get(`args\0${typeName}`, () =>
      inputObjectType({ name: typeName, fields: () => Object.fromEntries(args.filter((x) => x.name).map((x) => [x.name!, { type: scalarOf(x.type) }])) }),
    );
  }
}
