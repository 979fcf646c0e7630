/** Citus' rules as pure functions fed catalog rows (`pg_dist_partition`) and catalog tables. */
import { describe, expect, it } from 'vitest';
import { distributionOf, withDistribution, type PartitionRow } from '../../src/backends/citus/distribution.js';
import type { CatalogTable, DatabaseCatalog, TableDistribution } from '../../src/catalog/types.js';
import { distributionRefusal, eventTriggerRefusal } from '../../src/metadata/distribution.js';

const row = (over: Partial<PartitionRow>): PartitionRow => ({ schema: 'public', name: 't', method: 'h', replication: 's', colocation: 1, column: 'id', ...over });
const table = (name: string, distribution?: TableDistribution): CatalogTable => ({
  oid: 1, schema: 'public', name, kind: 'table', comment: null, columns: [], primaryKey: null, uniqueConstraints: [], foreignKeys: [], constraintNames: [],
  insertable: true, updatable: true, deletable: true, ...(distribution ? { distribution } : {}),
});
const distributed = (name: string, column: string) => table(name, { kind: 'distributed', column });
const reference = (name: string) => table(name, { kind: 'reference', column: null });
const local = (name: string) => table(name);

describe('pg_dist_partition rows', () => {
  it('reads hash, range and append tables as distributed on their column, reference and Citus local tables', () => {
    expect(distributionOf(row({ method: 'h' }))).toEqual({ kind: 'distributed', column: 'id' });
    expect(distributionOf(row({ method: 'r', column: 'at' }))).toEqual({ kind: 'distributed', column: 'at' });
    expect(distributionOf(row({ method: 'a' }))).toEqual({ kind: 'distributed', column: 'id' });
    expect(distributionOf(row({ method: 'n', replication: 't', column: null, colocation: 2 }))).toEqual({ kind: 'reference', column: null });
    expect(distributionOf(row({ method: 'n', replication: 's', column: null, colocation: 0 }))).toEqual({ kind: 'local', column: null });
    expect(distributionOf(row({ method: 'n', replication: 's', column: null, colocation: 7 }))).toEqual({ kind: 'distributed', column: null });
  });

  it('annotates only the listed tables and leaves the catalog it was given unchanged', () => {
    const catalog: DatabaseCatalog = { serverVersion: 160000, tables: [local('a'), local('b')], functions: [], enumTypes: [], baseTypes: [] };
    const out = withDistribution(catalog, [row({ name: 'a' })]);
    expect(out.tables.map((t) => t.distribution)).toEqual([{ kind: 'distributed', column: 'id' }, undefined]);
    expect(catalog.tables[0]!.distribution).toBeUndefined();
    expect(withDistribution(catalog, [])).toBe(catalog);
  });
});

describe('relationships on a distributed database', () => {
  const company = distributed('company', 'id');
  const campaign = distributed('campaign', 'company_id');
  const country = reference('country');
  const note = local('note');

  it('allows local and reference tables both ways, object and array', () => {
    for (const [from, to] of [[note, country], [country, note], [note, local('other')], [country, reference('region')]] as const) {
      expect(distributionRefusal(from, to, 'object', [['a', 'b']])).toBeNull();
      expect(distributionRefusal(from, to, 'array', [['a', 'b']])).toBeNull();
    }
  });

  it('allows distributed to distributed only on both distribution columns', () => {
    expect(distributionRefusal(campaign, company, 'object', [['company_id', 'id']])).toBeNull();
    expect(distributionRefusal(company, campaign, 'array', [['id', 'company_id']])).toBeNull();
    expect(distributionRefusal(campaign, company, 'object', [['id', 'id']])).toBe('a relationship between distributed tables must join their distribution columns ("company_id" to "id")');
  });

  it('allows distributed to reference only as an object relationship', () => {
    expect(distributionRefusal(company, country, 'object', [['country', 'code']])).toBeNull();
    expect(distributionRefusal(company, country, 'array', [['country', 'code']])).toBe('only object relationships are supported from a distributed table "company" to reference table "country"');
  });

  it('refuses local or reference to distributed, and distributed to local', () => {
    expect(distributionRefusal(country, company, 'array', [['code', 'country']])).toBe('relationships from a reference table "country" to distributed table "company" are not supported on a distributed database');
    expect(distributionRefusal(note, company, 'object', [['company_id', 'id']])).toMatch(/^relationships from a local table "note" to distributed/);
    expect(distributionRefusal(company, note, 'array', [['id', 'company_id']])).toMatch(/^relationships from a distributed table "company" to local/);
  });

  it('refuses event triggers on distributed and reference tables', () => {
    expect(eventTriggerRefusal(company)).toBe('event triggers are not supported on distributed table "company"');
    expect(eventTriggerRefusal(country)).toBe('event triggers are not supported on reference table "country"');
    expect(eventTriggerRefusal(note)).toBeNull();
  });
});
