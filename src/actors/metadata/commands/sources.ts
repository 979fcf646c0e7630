/** pg_add_source, pg_update_source, pg_drop_source, rename_source. */
import { alreadyExists, badRequest } from '../../../errors/admin.js';
import { bool, nonEmptyStr, ObjectReader } from '../../../util/decode.js';
import { sourceCustomization } from '../../../metadata/customization.js';
import { dependentsOfSource, dependencyError } from '../../../metadata/dependencies.js';
import { cascadeDependents } from './outcomes.js';
import { findSource } from '../../../metadata/lookup.js';
import type { BackendKind, SourceMetadata } from '../../../metadata/types.js';
import { SUCCESS, type Command, type CommandContext } from './context.js';

/** The decoder of a source kind's `configuration`. */
function configurationOf(ctx: CommandContext, kind: BackendKind) {
  const backend = ctx.backend(kind);
  if (!backend) throw badRequest('not-supported', `backend kind "${kind}" is not supported by this engine yet`);
  return (v: unknown, path: string) => backend.decodeConfiguration(v, path);
}

export function addSource(kind: BackendKind): Command {
  return (ctx, args, path) => {
    const r = ObjectReader.of(args, path);
    const name = r.required('name', nonEmptyStr);
    const configuration = r.required('configuration', configurationOf(ctx, kind));
    const replace = r.withDefault('replace_configuration', bool, false);
    const customization = r.optional('customization', sourceCustomization);
    r.done();
    const m = ctx.metadata;
    const existing = m.sources.find((s) => s.name === name);
    if (existing && !replace) throw alreadyExists(`source with name ${JSON.stringify(name)} already exists`, path);
    if (existing) {
      existing.configuration = configuration;
      if (customization) existing.customization = customization;
      else delete existing.customization;
    } else {
      const source: SourceMetadata = { name, kind, tables: [], configuration };
      if (customization) source.customization = customization;
      m.sources.push(source);
    }
    return { metadata: m, response: SUCCESS };
  };
}

export function updateSource(kind: BackendKind): Command {
  return (ctx, args, path) => {
    const r = ObjectReader.of(args, path);
    const name = r.required('name', nonEmptyStr);
    const configuration = r.optional('configuration', configurationOf(ctx, kind));
    const customization = r.optional('customization', sourceCustomization);
    r.done();
    const source = findSource(ctx.metadata, name, path);
    if (configuration) source.configuration = configuration;
    if (customization) source.customization = customization;
    return { metadata: ctx.metadata, response: SUCCESS };
  };
}

export const dropSource: Command = (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const name = r.required('name', nonEmptyStr);
  const cascade = r.withDefault('cascade', bool, false);
  r.done();
  const m = ctx.metadata;
  findSource(m, name, path);
  const dependents = dependentsOfSource(m, name);
  if (dependents.length > 0 && !cascade) throw dependencyError(dependents, path);
  for (const d of dependents) d.remove(m);
  m.sources = m.sources.filter((s) => s.name !== name);
  return { metadata: m, response: SUCCESS, ...cascadeDependents(cascade, path) };
};

export const renameSource: Command = (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const name = r.required('name', nonEmptyStr);
  const newName = r.required('new_name', nonEmptyStr);
  r.done();
  const m = ctx.metadata;
  const source = findSource(m, name, path);
  if (m.sources.some((s) => s.name === newName)) {
    throw badRequest('already-exists', `source with name ${JSON.stringify(newName)} already exists`, `${path}.new_name`);
  }
  source.name = newName;
  return { metadata: m, response: SUCCESS };
};
