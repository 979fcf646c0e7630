/** set_query_tags (the well-known engine's): a source's query tags settings, stored whole in its `query_tags`. */
import { nonEmptyStr, ObjectReader } from '../../../util/decode.js';
import { findSource } from '../../../metadata/lookup.js';
import { readQueryTags } from '../../../metadata/query-tags.js';
import { SUCCESS, type Command } from './context.js';

export const setQueryTags: Command = (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const name = r.required('source_name', nonEmptyStr);
  const config = readQueryTags(r);
  r.done();
  const source = findSource(ctx.metadata, name, `${path}.source_name`);
  source.query_tags = { ...config };
  return { metadata: ctx.metadata, response: SUCCESS };
};
