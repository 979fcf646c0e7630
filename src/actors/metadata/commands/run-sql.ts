/** run_sql: `{sql, source, cascade, check_metadata_consistency, read_only}`. */
import { bool, ObjectReader, str, type Json } from '../../../util/decode.js';
import { cascadeDependents } from './outcomes.js';
import { findSource } from '../../../metadata/lookup.js';
import type { Command } from './context.js';

export const runSqlCommand: Command = async (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const sql = r.required('sql', str);
  const source = r.withDefault('source', str, 'default');
  const cascade = r.withDefault('cascade', bool, false);
  const readOnly = r.withDefault('read_only', bool, false);
  const checkConsistency = r.withDefault('check_metadata_consistency', bool, !readOnly);
  r.done();
  findSource(ctx.metadata, source, `${path}.source`);
  const result = await ctx.runSql({ source, sql, readOnly, checkConsistency, cascade });
  return {
    metadata: checkConsistency ? ctx.metadata : null,
    response: result as unknown as Json,
    ...cascadeDependents(cascade, path),
    // Without the check, what the SQL broke is found by the next reload_metadata.
    ...(checkConsistency ? {} : { consistency: 'allow' as const }),
  };
};
