/** An engine on a fresh database for one test file. */
import { afterAll, beforeAll } from 'vitest';
import { freshDatabase, type TestDatabase } from './db.js';
import { startEngine, type Engine } from './engine.js';

export interface EngineFixture {
  db: TestDatabase;
  engine: Engine;
}

/** `database`: where the engine's database is made (`postgisDatabase` for a test needing PostGIS). */
export function useEngine(env: Record<string, string> = {}, args: string[] = [], database: () => Promise<TestDatabase> = () => freshDatabase()): EngineFixture {
  const fx = {} as EngineFixture;
  beforeAll(async () => {
    fx.db = await database();
    fx.engine = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: fx.db.url, ...env }, args);
  });
  afterAll(async () => {
    await fx.engine?.stop();
    await fx.db?.drop();
  });
  return fx;
}
