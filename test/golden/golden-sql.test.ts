/**
 * The PostgreSQL golden cases' SQL, without an engine or a database: each query and
 * subscription case is explained in this process (`pg-golden.ts`: the engine's explain code,
 * the request compiled as the engine compiles it over the catalog captured from the fixture
 * database) and the report must equal `expected.sql`, laid out one clause per line
 * (`format-sql.ts`). Mutations cannot be explained: `golden.test.ts` checks their answers.
 * `SERVICE_GOLDEN_UPDATE=1` writes the expected files (see README.md).
 */
import { describe } from 'vitest';
import { goldenSqlCases } from './dialect-golden.js';
import { cases, engineFreeExplain, explainedText, ROOT, storedCatalog } from './pg-golden.js';

const explain = engineFreeExplain(storedCatalog());
const explained = cases.filter((c) => c.operation !== 'mutation');

describe('PostgreSQL golden SQL', () => {
  goldenSqlCases(
    ROOT,
    explained.map((c) => c.name),
    'postgres',
    async (name) => explainedText(await explain(explained.find((c) => c.name === name)!)),
  );
});
