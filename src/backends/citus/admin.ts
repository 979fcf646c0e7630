/**
 * Citus, a flavour of PostgreSQL: its admin face is PostgreSQL's (the registry composes
 * them; backends never import each other), with introspection that adds each table's
 * distribution from Citus' catalog. Queries, mutations and errors are PostgreSQL's.
 * Event triggers (not supported by the well-known engine on Citus: Citus propagates no
 * triggers to shards) are left out of its capabilities.
 */
import type { AdminConnection, AdminFace, AdminTransaction } from '../faces/admin.js';
import type { JsonObject } from '../../util/decode.js';
import { readPartitions, withDistribution } from './distribution.js';

/** The admin face of Citus: PostgreSQL's, its catalog with each table's distribution, no event triggers. */
export function citusAdmin(postgres: AdminFace): AdminFace {
  return {
    // `kind` stays `postgres`: statements are PostgreSQL's, so citus sources share its compiler pool.
    ...postgres,
    capabilities: { ...postgres.capabilities, eventTriggers: false },
    connectAdmin: (configuration) => withCitusCatalog(postgres.connectAdmin(configuration), configuration),
  };
}

/** Reads the distribution in a read-only transaction of the admin connection (its only way to query). */
async function readOutside(connection: AdminConnection, configuration: JsonObject) {
  const tx = await connection.begin(configuration, true);
  try {
    const rows = await readPartitions((text, values) => tx.query(text, values));
    await tx.commit();
    return rows;
  } catch (e) {
    await tx.rollback();
    throw e;
  }
}

function withCitusCatalog(connection: AdminConnection, configuration: JsonObject): AdminConnection {
  const wrapped: AdminConnection = {
    introspect: async () => withDistribution(await connection.introspect(), await readOutside(connection, configuration)),
    loadEnumValues: (catalog, tables) => connection.loadEnumValues(catalog, tables),
    begin: async (configuration, readOnly, sessionJson) => withCitusTransaction(await connection.begin(configuration, readOnly, sessionJson)),
    close: () => connection.close(),
  };
  if (connection.syncChangeCapture) wrapped.syncChangeCapture = connection.syncChangeCapture.bind(connection);
  return wrapped;
}

function withCitusTransaction(tx: AdminTransaction): AdminTransaction {
  return {
    runSql: (sql) => tx.runSql(sql),
    mayChangeCatalog: (sql) => tx.mayChangeCatalog(sql),
    query: (text, values) => tx.query(text, values),
    introspect: async () => withDistribution(await tx.introspect(), await readPartitions((text, values) => tx.query(text, values))),
    commit: () => tx.commit(),
    rollback: () => tx.rollback(),
  };
}
