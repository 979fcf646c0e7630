/**
 * The names and descriptions of a table's role-specific types and root fields, made once per
 * snapshot (tracked-tables.ts): every role's schema holds the same strings, not its own copies.
 */
import type { CatalogTable } from '../catalog/types.js';
import type { TableMetadata } from '../metadata/types.js';
import type { SourceNaming } from './naming.js';

interface TypeTexts {
  name: string;
  description: string;
}

export interface TableTexts {
  object: TypeTexts;
  aggregate: TypeTexts;
  boolExp: TypeTexts;
  orderBy: TypeTexts;
  /** Descriptions of the root fields, unless `custom_root_fields` gives a comment. */
  roots: Record<'select' | 'select_aggregate' | 'select_by_pk' | 'select_stream', string>;
}

export function tableTexts(naming: SourceNaming, identifier: string, meta: TableMetadata, table: CatalogTable): TableTexts {
  const shown = JSON.stringify(table.name);
  const comment = typeof meta.configuration?.comment === 'string' ? meta.configuration.comment : table.comment;
  const qualified = JSON.stringify(table.schema === 'public' ? table.name : `${table.schema}.${table.name}`);
  return {
    object: { name: naming.typeName(identifier), description: comment ?? `columns and relationships of ${shown}` },
    aggregate: { name: naming.typeName(`${identifier}_aggregate`), description: `aggregated selection of ${shown}` },
    boolExp: {
      name: naming.typeName(`${identifier}_bool_exp`),
      description: `Boolean expression to filter rows from the table ${qualified}. All fields are combined with a logical 'AND'.`,
    },
    orderBy: { name: naming.typeName(`${identifier}_order_by`), description: `Ordering options when selecting data from ${shown}.` },
    roots: {
      select: `fetch data from the table: ${shown}`,
      select_aggregate: `fetch aggregated fields from the table: ${shown}`,
      select_by_pk: `fetch data from the table: ${shown} using primary key columns`,
      select_stream: `fetch data from the table in a streaming manner: ${shown}`,
    },
  };
}
