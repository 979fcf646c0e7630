/**
 * SQL Server event triggers without a server: the triggers' DDL made from the golden catalog
 * (`../fixture`), what a sync does given the triggers installed, and the event log's
 * statements (creation, leasing with READPAST/UPDLOCK, finishing, retention, the event
 * commands') are compared with `expected.sql` (one clause per line, `../../format-sql.ts`)
 * and parsed by node-sql-parser's TransactSQL dialect (`../../parse-forms.ts` for the forms it
 * does not read). `SERVICE_GOLDEN_UPDATE=1` writes the expected file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sqlParser from 'node-sql-parser';
import { describe, expect, it } from 'vitest';
import type { EventTriggerInstall } from '../../../../src/metadata/event-triggers.js';
import { SET_SESSION } from '../../../../src/backends/mssql/connection.js';
import { eventStatements, FINISH, fetchCappedStatement, fetchStatement, leaseRequest, RELEASE, RETENTION } from '../../../../src/backends/mssql/event-log.js';
import { ARCHIVE, CREATE_LOG, dropTrigger, HAS_LOG, INSTALLED, plannedChanges } from '../../../../src/backends/mssql/event-triggers.js';
import { mssqlCatalog, type MssqlCatalogRows } from '../../../../src/backends/mssql/introspect.js';
import { readJson } from '../../dialect-golden.js';
import { parseForms } from '../../parse-forms.js';
import { formatSql } from '../../format-sql.js';

const ROOT = fileURLToPath(new URL('.', import.meta.url));
const catalog = mssqlCatalog(readJson(join(ROOT, '../fixture/catalog-rows.json')) as MssqlCatalogRows);

const TRIGGERS: EventTriggerInstall[] = [
  {
    name: 'article_changes',
    table: { schema: 'dbo', name: 'article' },
    insert: { columns: '*', payload: '*' },
    update: { columns: ['title', 'views'], payload: ['id', 'title'] },
    delete: { columns: '*', payload: '*' },
    triggerOnReplication: true,
  },
  { name: 'author_new', table: { schema: 'dbo', name: 'author' }, insert: { columns: '*', payload: ['id', 'name'] }, triggerOnReplication: false },
  { name: 'order-updated', table: { schema: 'sales', name: 'order' }, update: { columns: '*', payload: '*' }, triggerOnReplication: true },
  // A view without a primary key: no UPDATE trigger (the old and new rows cannot be paired).
  { name: 'names_updated', table: { schema: 'dbo', name: 'author_names' }, update: { columns: '*', payload: '*' }, triggerOnReplication: true },
];

function sync() {
  const first = plannedChanges(TRIGGERS, catalog, [], new Set(), false);
  const ddl = (trigger: string) => first.changes.find((c) => c.trigger === trigger && c.kind === 'create') as { ddl: string };
  // Installed: one as wanted, one whose definition changed, one gone from the metadata, one another source keeps.
  const installed = [
    { trigger: 'service_event_author_new_INSERT', schema: 'dbo', name: 'author', definition: ddl('service_event_author_new_INSERT').ddl },
    { trigger: 'service_event_article_changes_INSERT', schema: 'dbo', name: 'article', definition: 'CREATE TRIGGER old' },
    { trigger: 'service_event_dropped_DELETE', schema: 'dbo', name: 'article', definition: 'CREATE TRIGGER x' },
    { trigger: 'service_event_other_INSERT', schema: 'dbo', name: 'author', definition: 'CREATE TRIGGER y' },
  ];
  return { first, second: plannedChanges(TRIGGERS, catalog, installed, new Set(['other']), false) };
}

/** Each statement to parse, named: batches are split at `;\n`, a trigger's DDL is one. */
function statements(): [string, string][] {
  const { first } = sync();
  const ddl: [string, string][] = first.changes.flatMap((c) => (c.kind === 'create' ? [[c.trigger, c.ddl] as [string, string]] : []));
  const batches: [string, string][] = [
    ['create log', CREATE_LOG],
    ['has log', HAS_LOG],
    ['installed triggers', INSTALLED],
    ['archive', ARCHIVE],
    ['drop trigger', dropTrigger('dbo', 'service_event_article_changes_INSERT')],
    ['fetch', fetchStatement(100)],
    // SERVICE_GRAPHQL_EVENTS_MAX_CONCURRENT_PER_TRIGGER: two capped triggers' locks, then the lease.
    ['fetch capped', fetchCappedStatement(100, 2)],
    ['finish', FINISH],
    ['release', RELEASE],
    ['retention', RETENTION],
    ['invoke', eventStatements.invoke],
    ['redeliver', eventStatements.redeliver],
    ['cleanup', eventStatements.cleanup],
    ['session variables', SET_SESSION],
  ];
  return [...ddl, ...batches.flatMap(([name, text]) => text.split(';\n').map((s, i, all) => [all.length > 1 ? `${name} ${i + 1}` : name, s] as [string, string]))];
}

describe('SQL Server event triggers', () => {
  it('leases capped triggers under their application locks, in name order (SERVICE_GRAPHQL_EVENTS_MAX_CONCURRENT_PER_TRIGGER)', () => {
    const spec = (name: string, maxConcurrent: number) => ({ name, leaseSeconds: 70, maxConcurrent });
    expect(leaseRequest([spec('b', 0), spec('a', 0)], 50, 'i1')).toEqual({ text: fetchStatement(50), values: ['[{"name":"b","lease":70,"cap":0},{"name":"a","lease":70,"cap":0}]', 'i1'] });
    const capped = leaseRequest([spec('zeta', 2), spec('free', 0), spec('alpha', 2)], 50, 'i1');
    expect(capped.text).toBe(fetchCappedStatement(50, 2));
    expect(capped.values.slice(1)).toEqual(['i1', 'service_catalog.event_cap.alpha', 'service_catalog.event_cap.zeta']);
  });

  it('writes the triggers, the sync and the event log statements as expected', () => {
    const { first, second } = sync();
    // The second sync's definitions are the first one's: only named.
    const show = (plan: typeof first, ddl: boolean) => [
      ...plan.changes.map((c) => (c.kind === 'drop' ? `-- drop ${c.schema}.${c.trigger}` : `-- create ${c.schema}.${c.trigger}${ddl ? `\n${c.ddl}` : ''}`)),
      ...[...plan.failed].map(([t, e]) => `-- cannot make ${t}: ${e}`),
      `-- archived: ${JSON.stringify(plan.gone)}`,
    ];
    const text = ['-- a first sync', ...show(first, true), '', '-- a sync over installed triggers', ...show(second, false), '', ...statements().filter(([n]) => !n.startsWith('service_event_')).map(([n, s]) => `-- ${n}\n${s}`)].join('\n') + '\n';
    const actual = formatSql(text, 'mssql');
    const expectedPath = join(ROOT, 'expected.sql');
    if (process.env.SERVICE_GOLDEN_UPDATE === '1') writeFileSync(expectedPath, actual);
    expect(actual).toBe(readFileSync(expectedPath, 'utf8'));
  });

  it('writes statements node-sql-parser reads as T-SQL', () => {
    const parser = new sqlParser.Parser();
    for (const [name, statement] of statements()) {
      for (const part of parseForms(statement, 'TransactSQL')) {
        expect(() => parser.astify(part, { database: 'TransactSQL' }), `${name}: ${part}`).not.toThrow();
      }
    }
  });

  it('pairs the rows of an UPDATE on the primary key and fires only on a change to the listed columns', () => {
    const { first } = sync();
    const update = first.changes.find((c) => c.trigger === 'service_event_article_changes_UPDATE') as { ddl: string };
    expect(update.ddl).toContain('FROM inserted AS [n] INNER JOIN deleted AS [o] ON [n].[id] = [o].[id] WHERE ([n].[title] <> [o].[title]');
    expect(first.failed.get('service_event_names_updated_UPDATE')).toMatch(/needs a primary key/);
    const replication = first.changes.find((c) => c.trigger === 'service_event_author_new_INSERT') as { ddl: string };
    expect(replication.ddl).toContain('AFTER INSERT NOT FOR REPLICATION AS');
  });
});
