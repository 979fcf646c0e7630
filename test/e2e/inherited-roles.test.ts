import { beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';

const fx = useEngine();

beforeAll(async () => {
  await fx.db.sql(`CREATE TABLE author (id serial PRIMARY KEY, name text)`);
  await meta('pg_track_table', { table: 'author' });
  for (const role of ['user1', 'user2', 'user3']) {
    await meta('pg_create_select_permission', { table: 'author', role, permission: { columns: ['id'], filter: {} } });
  }
});

const meta = (type: string, args: unknown) => fx.engine.metadata({ type, args });
const roles = async () => (await meta('export_metadata', {})).body.inherited_roles;
const inconsistencies = async () => (await meta('get_inconsistent_metadata', {})).body;

describe('add_inherited_role / drop_inherited_role', () => {
  it('adds roles, listed by export_metadata sorted by name', async () => {
    expect(await meta('add_inherited_role', { role_name: 'team', role_set: ['user2', 'user1'] })).toEqual({ status: 200, body: { message: 'success' } });
    expect((await meta('add_inherited_role', { role_name: 'crew', role_set: ['team', 'user3'] })).status).toBe(200);
    expect(await roles()).toEqual([
      { role_name: 'crew', role_set: ['team', 'user3'] },
      { role_name: 'team', role_set: ['user2', 'user1'] },
    ]);
  });

  it('needs two or more roles, not including itself', async () => {
    const one = await meta('add_inherited_role', { role_name: 'solo', role_set: ['user1'] });
    expect(one.body).toEqual({ path: '$.args', error: 'an inherited role needs at least two roles in its role_set', code: 'invalid-params' });
    const self = await meta('add_inherited_role', { role_name: 'solo', role_set: ['solo', 'user1'] });
    expect(self.body).toEqual({ path: '$.args', error: 'an inherited role name cannot be in the role combination', code: 'invalid-params' });
  });

  it('refuses cycles, directly or through another inherited role', async () => {
    const r = await meta('add_inherited_role', { role_name: 'team', role_set: ['crew', 'user1'] });
    expect(r.body).toEqual({ path: '$.args', error: 'found cycle(s) in roles: ["crew","team","crew"]', code: 'cyclic-dependency' });
  });

  it('refuses parent roles that no permission names', async () => {
    const r = await meta('add_inherited_role', { role_name: 'ghosts', role_set: ['user1', 'nobody'] });
    expect(r.body).toMatchObject({
      path: '$.args',
      code: 'invalid-configuration',
      error: 'Inconsistent object: the following parent role(s) are not found: nobody which are required to construct the inherited role: "ghosts"',
    });
    expect(r.body.internal[0]).toMatchObject({ type: 'inherited_role', name: 'inherited_role inherited role ghosts', definition: { role_name: 'ghosts', role_set: ['user1', 'nobody'] } });
  });

  it('drops a role, and names a missing one', async () => {
    expect((await meta('drop_inherited_role', { role_name: 'crew' })).status).toBe(200);
    expect(await roles()).toEqual([{ role_name: 'team', role_set: ['user2', 'user1'] }]);
    expect((await meta('drop_inherited_role', { role_name: 'crew' })).body).toEqual({ path: '$.args', error: '"crew" inherited role doesn\'t exist', code: 'not-exists' });
  });

  it('works on /v1/query too', async () => {
    expect((await fx.engine.query({ type: 'add_inherited_role', args: { role_name: 'q', role_set: ['user1', 'user3'] } })).status).toBe(200);
    expect((await fx.engine.query({ type: 'drop_inherited_role', args: { role_name: 'q' } })).status).toBe(200);
  });
});

describe('conflicting mutation permissions (rule 5)', () => {
  const conflict = {
    type: 'inherited role permission inconsistency',
    name: 'team',
    entity: { table: 'author', source: 'default', permission_type: 'insert' },
    reason: "Could not inherit permission for the role 'team' for the entity: 'insert permission, table: author, source: 'default''",
  };

  it('inherits identical parent permissions without complaint', async () => {
    for (const role of ['user1', 'user2']) {
      expect((await meta('pg_create_insert_permission', { table: 'author', role, permission: { check: {}, columns: ['name', 'id'] } })).status).toBe(200);
    }
    expect(await inconsistencies()).toEqual({ is_consistent: true, inconsistent_objects: [] });
  });

  it('reports differing parent permissions, without failing the change', async () => {
    await meta('pg_drop_insert_permission', { table: 'author', role: 'user2' });
    const r = await meta('pg_create_insert_permission', { table: 'author', role: 'user2', permission: { check: { id: { _eq: 'X-Service-User-Id' } }, columns: ['id'] } });
    expect(r.status).toBe(200);
    expect(await inconsistencies()).toEqual({ is_consistent: false, inconsistent_objects: [conflict] });
  });

  it('keeps the entry through drop_inconsistent_metadata', async () => {
    expect((await meta('drop_inconsistent_metadata', {})).status).toBe(200);
    expect((await inconsistencies()).inconsistent_objects).toEqual([conflict]);
  });

  it('is resolved by an explicit permission for the role', async () => {
    expect((await meta('pg_create_insert_permission', { table: 'author', role: 'team', permission: { check: {} } })).status).toBe(200);
    expect(await inconsistencies()).toEqual({ is_consistent: true, inconsistent_objects: [] });
  });

  it('refuses a whole document that has one (or a role cycle), unless inconsistencies are allowed', async () => {
    const m = (await meta('export_metadata', {})).body;
    m.sources[0].tables[0].insert_permissions = m.sources[0].tables[0].insert_permissions.filter((p: any) => p.role !== 'team');
    const refused = await fx.engine.metadata({ type: 'replace_metadata', version: 2, args: { metadata: m } });
    expect(refused.body).toEqual({ path: '$.args', error: 'cannot continue due to inconsistent metadata', code: 'unexpected', internal: [conflict] });
    const allowed = await fx.engine.metadata({ type: 'replace_metadata', version: 2, args: { metadata: m, allow_inconsistent_metadata: true } });
    expect(allowed.body).toEqual({ is_consistent: false, inconsistent_objects: [conflict] });

    m.inherited_roles = [
      { role_name: 'a', role_set: ['b', 'user1'] },
      { role_name: 'b', role_set: ['a', 'user2'] },
    ];
    const cycle = await fx.engine.metadata({ type: 'replace_metadata', args: m });
    expect(cycle.body).toEqual({ path: '$.args', error: 'found cycle(s) in roles: ["a","b","a"]', code: 'cyclic-dependency' });
  });
});
