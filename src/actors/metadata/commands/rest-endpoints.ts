/** create_rest_endpoint, drop_rest_endpoint (spec "RESTified endpoints"), on both administration APIs. */
import { notExists } from '../../../errors/admin.js';
import { nonEmptyStr, ObjectReader } from '../../../util/decode.js';
import { queryCollections } from '../../../metadata/query-collections.js';
import { checkNewEndpoint, endpointQuery, restEndpoint, restEndpoints, setRestEndpoints } from '../../../metadata/rest-endpoints.js';
import { SUCCESS, type Command } from './context.js';
import { collectionOutcome } from './query-collections.js';

/** The endpoint's collection is validated against the schema from now on: a query that does not validate fails the command. */
export const createRestEndpoint: Command = (ctx, args, path) => {
  const e = restEndpoint(args, path);
  const others = restEndpoints(ctx.metadata);
  checkNewEndpoint(e, others, path);
  endpointQuery(e, queryCollections(ctx.metadata), path);
  setRestEndpoints(ctx.metadata, [...others, e]);
  return { metadata: ctx.metadata, response: SUCCESS, ...collectionOutcome(e.definition.query.collection_name, path) };
};

export const dropRestEndpoint: Command = (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const name = r.required('name', nonEmptyStr);
  r.done();
  const list = restEndpoints(ctx.metadata);
  if (!list.some((e) => e.name === name)) throw notExists(`endpoint with name: ${name} does not exist`, r.at('name'));
  setRestEndpoints(ctx.metadata, list.filter((e) => e.name !== name));
  return { metadata: ctx.metadata, response: SUCCESS };
};
