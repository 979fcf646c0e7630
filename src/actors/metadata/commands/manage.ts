/** export, replace, reload, clear, get/drop inconsistent metadata. */
import { remoteSchemas } from '../../../metadata/remote-schemas.js';
import { anchorAt, ApiError, badRequest } from '../../../errors/admin.js';
import { arrayOf, bool, ObjectReader, str, type Json, type JsonObject } from '../../../util/decode.js';
import { parseMetadataDocument } from '../../../metadata/document.js';
import type { InconsistentObject, Metadata } from '../../../metadata/types.js';
import { SUCCESS, type Command, type CommandContext } from './context.js';

/** `version` from the request envelope: 1 or 2, when given. */
export type EnvelopeVersion = 1 | 2 | undefined;

export const exportMetadata =
  (version: EnvelopeVersion): Command =>
  (ctx, args, path) => {
    ObjectReader.of(args ?? {}, path).done();
    const metadata = exportedDocument(ctx.metadata) as unknown as Json;
    const response = version === 2 ? { resource_version: ctx.resourceVersion, metadata } : metadata;
    return { metadata: null, response };
  };

/** The document as exported: cron triggers with `include_in_metadata: false` are left out (spec "Cron trigger"). */
function exportedDocument(m: Metadata): Metadata {
  const cron = m.cron_triggers;
  if (!Array.isArray(cron) || cron.every((t) => (t as JsonObject).include_in_metadata !== false)) return m;
  const kept = cron.filter((t) => (t as JsonObject).include_in_metadata !== false);
  const { cron_triggers: _all, ...rest } = m;
  return (kept.length > 0 ? { ...rest, cron_triggers: kept } : rest) as Metadata;
}

function inconsistencyReport(list: InconsistentObject[]): Json {
  return { is_consistent: list.length === 0, inconsistent_objects: list };
}

export const replaceMetadata =
  (version: EnvelopeVersion): Command =>
  (ctx, args, path) => {
    const r = ObjectReader.of(args, path);
    // Version 2 wraps the document: {allow_inconsistent_metadata, metadata}.
    const v2 = version === 2 || (version === undefined && r.has('metadata') && !r.has('sources') && !r.has('tables'));
    // Without allow_inconsistent_metadata, any inconsistency of the new document refuses it, old or new.
    const refuseInconsistent = {
      consistency: 'refuse-any' as const,
      inconsistencyError: (objects: InconsistentObject[]) => new ApiError(400, 'unexpected', 'cannot continue due to inconsistent metadata', '$.args', objects),
    };
    if (!v2) {
      return { metadata: parseMetadataDocument(args, path, ctx.metadata, ctx.backend), response: SUCCESS, ...refuseInconsistent };
    }
    const allow = r.withDefault('allow_inconsistent_metadata', bool, false);
    // What is wrong in the document is reported at the document (`$.args.metadata`).
    const metadata = r.required('metadata', (x, p) => {
      try {
        return parseMetadataDocument(x, p, ctx.metadata, ctx.backend);
      } catch (e) {
        throw anchorAt(e, p);
      }
    });
    r.done();
    return {
      metadata,
      // Filled in by the executor once the new document is resolved.
      response: allow ? null : SUCCESS,
      reportInconsistencies: allow ? inconsistencyReport : undefined,
      ...refuseInconsistent,
      ...(allow ? { consistency: 'allow' as const } : {}),
    };
  };

export const clearMetadata: Command = (ctx, args, path) => {
  ObjectReader.of(args ?? {}, path).done();
  // The default source stays (its connection comes from the environment); everything else goes.
  const keep = ctx.metadata.sources
    .filter((s) => s.name === 'default')
    .map((s) => ({ name: s.name, kind: s.kind, tables: [], configuration: s.configuration }));
  const m: Metadata = { version: 3, sources: keep };
  return { metadata: m, response: SUCCESS };
};

function sourceList(v: unknown, path: string): string[] | true | false {
  if (typeof v === 'boolean') return v;
  return arrayOf(str)(v, path);
}

export const reloadMetadata: Command = async (ctx, args, path) => {
  const r = ObjectReader.of(args ?? {}, path);
  const remotes = r.withDefault('reload_remote_schemas', sourceList, true);
  const sources = ctx.endpoint === 'v1/metadata' ? r.withDefault('reload_sources', sourceList, true) : true;
  const recreate = ctx.endpoint === 'v1/metadata' ? r.withDefault('recreate_event_triggers', sourceList, false) : false;
  r.done();
  if (sources !== false) {
    if (Array.isArray(sources)) {
      const unknown = sources.filter((s) => !ctx.metadata.sources.some((x) => x.name === s));
      if (unknown.length > 0) throw badRequest('not-exists', `source with name ${JSON.stringify(unknown[0])} does not exist`, `${path}.reload_sources`);
    }
    await ctx.reloadSources(sources);
  }
  if (remotes !== false) {
    if (Array.isArray(remotes)) {
      const known = new Set(remoteSchemas(ctx.metadata).map((x) => x.name));
      const unknown = remotes.filter((x) => !known.has(x));
      if (unknown.length > 0) throw badRequest('not-exists', `remote schema with name ${JSON.stringify(unknown[0])} does not exist`, `${path}.reload_remote_schemas`);
    }
    await ctx.reloadRemoteSchemas(remotes);
  }
  return {
    metadata: null,
    consistency: 'allow',
    response: null,
    ...(recreate !== false ? { recreateEventTriggers: recreate } : {}),
    reportInconsistencies: (list): Json =>
      list.length === 0 ? { is_consistent: true, message: 'success' } : { is_consistent: false, message: 'success', inconsistent_objects: list },
  };
};

export const getInconsistentMetadata: Command = (ctx, args, path) => {
  ObjectReader.of(args ?? {}, path).done();
  const list = ctx.inconsistencies();
  // The deprecated API answers the list alone (spec: Metadata management).
  return { metadata: null, response: ctx.endpoint === 'v1/metadata' ? inconsistencyReport(list) : (list as Json) };
};

export const dropInconsistentMetadata: Command = (ctx: CommandContext, args, path) => {
  ObjectReader.of(args ?? {}, path).done();
  ctx.dropInconsistentObjects();
  return { metadata: ctx.metadata, consistency: 'allow', response: SUCCESS };
};

export const dumpInternalState: Command = (ctx) => ({
  metadata: null,
  response: { resource_version: ctx.resourceVersion, inconsistent_objects: ctx.inconsistencies() as Json, sources: ctx.metadata.sources.map((s) => s.name) },
});
