import { describe, expect, it } from 'vitest';
import { documentJson } from '../../src/metadata/document.js';
import type { Metadata } from '../../src/metadata/types.js';
import { deepFreeze, produce } from '../../src/util/draft.js';

const doc = deepFreeze({
  version: 3,
  sources: [
    {
      name: 'default',
      kind: 'postgres',
      tables: [
        { table: { schema: 'public', name: 'a' }, select_permissions: [{ role: 'u', permission: { columns: '*', filter: { x: { _eq: 'é"\\' } } } }] },
        { table: { schema: 'public', name: 'b' }, is_enum: true },
      ],
      configuration: { connection_info: { database_url: { from_env: 'X' } } },
    },
  ],
  inherited_roles: [{ role_name: 'r', role_set: ['u', 'v'] }],
} as Metadata);

describe('documentJson', () => {
  it('is JSON.stringify of the document, before and after a change', () => {
    expect(documentJson(doc)).toBe(JSON.stringify(doc));
    const next = produce(doc, (d) => {
      d.sources[0]!.tables[1]!.comment = 'changed';
      d.sources[0]!.tables.push({ table: { schema: 'public', name: 'c' } });
    });
    expect(documentJson(next)).toBe(JSON.stringify(next));
  });
});
