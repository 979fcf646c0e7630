/**
 * The tables, views and functions a SQL text creates, found as the well-known console finds them
 * to "Track this": every `CREATE [OR REPLACE] TABLE | VIEW | MATERIALIZED VIEW | FUNCTION
 * [IF NOT EXISTS] [schema.]name`, comments aside; partitions (`PARTITION OF`) are not tracked.
 * Unquoted names fold to lower case as PostgreSQL folds them; the schema defaults to `public`.
 */
import { sameTable, type QualifiedTable } from '../../../api/metadata';

export interface Created {
  kind: 'table' | 'function';
  name: QualifiedTable;
}

const CREATE = /create\s+(?:or\s+replace\s+)?(table|view|materialized\s+view|function)\s+(?:if\s+not\s+exists\s+)?(?:("[^"]+"|\w+)\s*\.\s*)?("[^"]+"|\w+)(\s+partition\s+of\b)?/gi;

const unquote = (s: string): string => (s.startsWith('"') ? s.slice(1, -1) : s.toLowerCase());

export function createdObjects(sql: string): Created[] {
  const text = sql.replace(/--[^\n]*/g, '').replace(/\/\*[\s\S]*?\*\//g, '');
  const out: Created[] = [];
  for (const m of text.matchAll(CREATE)) {
    if (m[4]) continue;
    const kind = m[1]!.toLowerCase() === 'function' ? 'function' : 'table';
    const name = { schema: m[2] ? unquote(m[2]) : 'public', name: unquote(m[3]!) };
    if (!out.some((c) => c.kind === kind && sameTable(c.name, name))) out.push({ kind, name });
  }
  return out;
}
