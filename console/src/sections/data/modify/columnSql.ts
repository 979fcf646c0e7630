/** A column's definition in DDL, from what the column forms ask (the type and default are SQL as typed). */
import { sqlIdent } from '../../../api/sql';

export interface NewColumn {
  name: string;
  type: string;
  nullable: boolean;
  unique: boolean;
  /** An SQL expression, or blank for none. */
  default: string;
}

export const COMMON_TYPES = ['integer', 'bigint', 'serial', 'bigserial', 'numeric', 'double precision', 'text', 'varchar', 'boolean', 'date', 'time', 'timestamptz', 'timestamp', 'uuid', 'json', 'jsonb'];

export const columnDefinition = (c: NewColumn): string =>
  [sqlIdent(c.name.trim()), c.type.trim(), c.nullable ? '' : 'NOT NULL', c.unique ? 'UNIQUE' : '', c.default.trim() ? `DEFAULT ${c.default.trim()}` : ''].filter(Boolean).join(' ');
