/**
 * A source's `query_tags` (the well-known engine's, stored beside its `configuration`): whether
 * its statements carry the query tags comment, in which format, and whether with the request id.
 * Stored whole, defaults filled in, as upstream's `set_query_tags` stores it.
 */
import { parseFailed } from '../errors/admin.js';
import { bool, ObjectReader, str } from '../util/decode.js';

export const QUERY_TAGS_FORMATS = ['standard', 'sqlcommenter', 'standard_prepended'] as const;

export interface QueryTagsConfig {
  disabled: boolean;
  format: (typeof QUERY_TAGS_FORMATS)[number];
  omit_request_id: boolean;
}

/** Upstream reads the format case-insensitively. */
function format(v: unknown, path: string): QueryTagsConfig['format'] {
  const s = str(v, path).toLowerCase();
  if (!(QUERY_TAGS_FORMATS as readonly string[]).includes(s)) throw parseFailed(`Not a valid query tags format value. Use either ${QUERY_TAGS_FORMATS.join(', ')}`, path);
  return s as QueryTagsConfig['format'];
}

/** The settings of `r` (a `query_tags` object, or `set_query_tags`' arguments); the caller checks the rest of its keys. */
export function readQueryTags(r: ObjectReader): QueryTagsConfig {
  return {
    disabled: r.withDefault('disabled', bool, false),
    format: r.withDefault('format', format, 'standard'),
    omit_request_id: r.withDefault('omit_request_id', bool, true),
  };
}

export function queryTagsConfig(v: unknown, path: string): QueryTagsConfig {
  const r = ObjectReader.of(v, path);
  const config = readQueryTags(r);
  r.done();
  return config;
}
