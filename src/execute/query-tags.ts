/**
 * Query tags (the well-known engine's): a comment appended to every statement a GraphQL request
 * runs on a source, naming the request, its root field, its parameterized query hash and its
 * operation, so the database's own tools (`pg_stat_activity`, slow-query logs) tie a statement to
 * a request. Without the request id the comment is the same for every run of a plan's statement:
 * it is written once and the tagged statement is prepared as the untagged one was. With it, each
 * request's text differs: it runs unnamed (preparing it would only fill the connection's cache).
 */
import { createHash } from 'node:crypto';

export type QueryTagsFormat = 'standard' | 'sqlcommenter' | 'standard_prepended';

/** A source's `query_tags` in effect (null: disabled). One shared object per setting: identity says "same setting". */
export interface QueryTags {
  readonly format: QueryTagsFormat;
  readonly omitRequestId: boolean;
}

const interned = new Map<string, QueryTags>();

/**
 * A source's setting (its metadata's `query_tags`). Absent: off, as in the well-known engine's
 * open-source edition (its enterprise edition tags by default): on, every statement's text and
 * name change, 15-20% more engine and database CPU per request on W2-W4 (bench/RESULTS.md).
 * `set_query_tags` turns them on: standard format, without the request id, unless it says otherwise.
 */
export function queryTagsOf(config: { disabled?: boolean; format?: QueryTagsFormat; omit_request_id?: boolean } | undefined): QueryTags | null {
  if (!config || config.disabled) return null;
  const format = config?.format ?? 'standard';
  const omitRequestId = config?.omit_request_id ?? true;
  const key = `${format}|${omitRequestId}`;
  let tags = interned.get(key);
  if (!tags) interned.set(key, (tags = Object.freeze({ format, omitRequestId })));
  return tags;
}

/** What a request says of itself in its tags. */
export interface TagContext {
  requestId?: string | undefined;
  operationName?: string | null | undefined;
  queryHash?: string | undefined;
}

/**
 * A value as it may stand in the comment: URL-encoded as sqlcommenter asks (`'` too), which also
 * keeps a client's request id from closing the comment (`*` `/` never meet: `/` is encoded).
 */
const encode = (v: string): string => (/^[\w.:-]*$/.test(v) ? v : encodeURIComponent(v).replace(/'/g, '%27'));

function comment(tags: QueryTags, field: string, ctx: TagContext): string {
  const pairs: [string, string][] = [];
  if (!tags.omitRequestId && ctx.requestId) pairs.push(['request_id', ctx.requestId]);
  pairs.push(['field_name', field]);
  if (ctx.queryHash) pairs.push(['parameterized_query_hash', ctx.queryHash]);
  if (ctx.operationName) pairs.push(['operation_name', ctx.operationName]);
  if (tags.format === 'sqlcommenter') {
    // The sqlcommenter spec: keys sorted, values quoted.
    return `/* ${pairs.sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => `${k}='${encode(v)}'`).join(',')} */`;
  }
  return `/* ${pairs.map(([k, v]) => `${k}=${encode(v)}`).join(', ')} */`;
}

interface Tagged {
  tags: QueryTags;
  operationName: string | null | undefined;
  text: string;
  statement: string | null;
}

/** The tagged form of each statement (keyed by its plan's object), for the setting and operation it was made for. */
const cache = new WeakMap<PlannedStatement, Tagged>();

const place = (tags: QueryTags, text: string, c: string) => (tags.format === 'standard_prepended' ? `${c}\n${text}` : `${text}\n${c}`);

/** A plan's statement: its text and prepared statement name. */
export interface PlannedStatement {
  readonly text: string;
  readonly statement: string | null;
}

/**
 * The text and prepared statement name to run `planned` (a plan's object, the key of its tagged
 * form) with, for a request's root field `field`: `planned` itself when the source has no tags
 * (nothing made per statement on the hot path).
 */
export function tagged(tags: QueryTags | null | undefined, planned: PlannedStatement, field: string, ctx: TagContext): PlannedStatement {
  if (!tags) return planned;
  const { text, statement } = planned;
  if (!tags.omitRequestId && ctx.requestId) return { text: place(tags, text, comment(tags, field, ctx)), statement: null };
  const hit = cache.get(planned);
  if (hit && hit.tags === tags && hit.operationName === ctx.operationName) return hit;
  const c = comment(tags, field, ctx);
  const suffix = createHash('sha1').update(c).digest('base64url').slice(0, 10);
  const made: Tagged = { tags, operationName: ctx.operationName, text: place(tags, text, c), statement: statement === null ? null : `${statement}_${suffix}` };
  cache.set(planned, made);
  return made;
}
