/** GraphQL requests against an engine started by the test. */
import type { Engine } from './engine.js';

export async function gql(engine: Engine, query: string, variables?: Record<string, unknown>, headers: Record<string, string> = {}): Promise<any> {
  const r = await engine.post('/v1/graphql', { query, variables }, headers);
  if (r.status !== 200) throw new Error(`status ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body;
}

/** The metadata document with `tables` replacing those of the default source. */
export async function replaceTables(engine: Engine, tables: unknown[], extra: Record<string, unknown> = {}): Promise<void> {
  const exp = (await engine.metadata({ type: 'export_metadata', args: {} })).body;
  const source = exp.sources.find((s: any) => s.name === 'default');
  source.tables = tables;
  Object.assign(source, extra.source ?? {});
  delete extra.source;
  const r = await engine.metadata({ type: 'replace_metadata', args: { ...exp, ...extra } });
  if (r.status !== 200) throw new Error(`replace_metadata: ${JSON.stringify(r.body)}`);
}
