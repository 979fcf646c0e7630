/**
 * The metadata actor's side of a PostgreSQL source: introspection, enum table rows,
 * and the transaction an administration request holds open for run_sql and the DML
 * operations (savepoints keep the earlier steps of a bulk usable after a failed one).
 */
import type pg from 'pg';
import type { DatabaseCatalog, QualifiedName } from '../../catalog/types.js';
import type { JsonObject } from '../../util/decode.js';
import type { AdminConnection, AdminTransaction } from '../faces/admin.js';
import type { EventTriggerInstall } from '../../metadata/event-triggers.js';
import { syncChangeCapture } from './change-capture.js';
import { recordSession, syncEventTriggers } from './event-triggers.js';
import { beginStatement, createPool } from './connection.js';
import { loadEnumValues } from './enum-values.js';
import { introspectPg } from './introspect.js';
import { runSql } from './run-sql.js';

const DDL = /\b(create|alter|drop|comment|rename|replace|truncate|grant|revoke)\b/i;

export class PgAdminConnection implements AdminConnection {
  private readonly pool: pg.Pool;

  constructor(configuration: JsonObject) {
    this.pool = createPool(configuration);
  }

  introspect() {
    return introspectPg(this.pool);
  }

  loadEnumValues(catalog: DatabaseCatalog, tables: QualifiedName[]) {
    return loadEnumValues(this.pool, catalog, tables);
  }

  syncChangeCapture(source: string, tables: readonly QualifiedName[], keep: readonly QualifiedName[]) {
    return syncChangeCapture(this.pool, source, tables, keep);
  }

  syncEventTriggers(triggers: readonly EventTriggerInstall[], keep: ReadonlySet<string>, recreate: boolean) {
    return syncEventTriggers(this.pool, triggers, keep, recreate);
  }

  async begin(configuration: JsonObject, readOnly: boolean, sessionJson?: string): Promise<AdminTransaction> {
    const client = await this.pool.connect();
    try {
      await client.query(beginStatement(configuration, readOnly));
      if (sessionJson !== undefined) await recordSession(client, sessionJson);
    } catch (e) {
      client.release();
      throw e;
    }
    return new PgAdminTransaction(client);
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

class PgAdminTransaction implements AdminTransaction {
  constructor(private readonly client: pg.PoolClient) {}

  runSql(sql: string) {
    return this.inSavepoint(() => runSql(this.client, sql));
  }

  mayChangeCatalog(sql: string): boolean {
    return DDL.test(sql);
  }

  query(text: string, values: unknown[]) {
    return this.inSavepoint(async () => (await this.client.query({ text, values })).rows as Record<string, unknown>[]);
  }

  introspect() {
    return introspectPg(this.client);
  }

  async commit(): Promise<void> {
    await this.client.query('COMMIT');
    this.client.release();
  }

  async rollback(): Promise<void> {
    await this.client.query('ROLLBACK').catch(() => {});
    this.client.release();
  }

  /** A failed statement would abort the whole transaction; a savepoint keeps earlier steps usable. */
  private async inSavepoint<T>(fn: () => Promise<T>): Promise<T> {
    await this.client.query('SAVEPOINT step');
    try {
      const result = await fn();
      await this.client.query('RELEASE SAVEPOINT step');
      return result;
    } catch (e) {
      await this.client.query('ROLLBACK TO SAVEPOINT step').catch(() => {});
      throw e;
    }
  }
}
