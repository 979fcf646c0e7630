/** A document's permission lists: a body equal to the one before it is read once; what is wrong is still reported where it is. */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors/admin.js';
import { permissionEntries } from '../../src/metadata/permissions.js';

const read = permissionEntries('select');
const body = (limit: unknown) => ({ columns: ['id'], filter: { owner: { _eq: 'X-Service-User-Id' } }, limit });

describe('permissionEntries', () => {
  it('gives roles with the same body word for word one stored body, equal to each read alone', () => {
    const items = read([{ role: 'a', permission: body(5) }, { role: 'b', permission: body(5) }, { role: 'c', permission: body(6) }, { role: 'd', permission: body(5) }], '$');
    expect(items.map((i) => i.role)).toEqual(['a', 'b', 'c', 'd']);
    expect(items[1]!.permission).toBe(items[0]!.permission);
    expect(items[2]!.permission).toEqual({ columns: ['id'], filter: body(0).filter, limit: 6 });
    expect(items[3]!.permission).toEqual(items[0]!.permission);
  });

  it('reports a body that differs from the one before at its own path', () => {
    let error: unknown;
    try {
      read([{ role: 'a', permission: body(5) }, { role: 'b', permission: body(5) }, { role: 'c', permission: body(-1) }], '$.select_permissions');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).path).toBe('$.select_permissions[2].permission.limit');
  });
});
