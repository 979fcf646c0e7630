/**
 * Keeps each source's database triggers on exactly its metadata's event triggers (spec
 * "Event trigger"), as `change-capture.ts` does for live queries: run as each metadata
 * version is taken, so tracking, untracking, run_sql renames, clear_metadata,
 * replace_metadata and dropped sources all end with the database triggers of the document in
 * effect. Unlike change capture, it runs before the answer: a client that creates a trigger
 * and then writes expects the write to be captured. A source whose triggers and catalog are
 * what was last synced costs no statement; `reload_metadata` with `recreate_event_triggers`
 * installs its triggers again. A trigger that cannot be installed (no privilege) is logged; one
 * whose table another session keeps locked (the backend's waits are bounded) fails the
 * metadata request that wanted it (`strict`), before the new document is stored.
 */
import type { AdminConnection, EventTriggerSyncFailure } from '../../backends/faces/admin.js';
import { backendFor } from '../../backends/registry.js';
import { qualifiedKey } from '../../catalog/types.js';
import { deliveryView, eventTriggerObjectName, installSpec, sourceEventTriggers, type EventTriggerView } from '../../metadata/event-triggers.js';
import type { Inconsistency, SourceCatalog } from '../../metadata/resolve.js';
import type { Metadata, TableMetadata } from '../../metadata/types.js';
import { samePicks } from '../../util/same-picks.js';
import { logger } from '../../log.js';
import { ApiError } from '../../errors/admin.js';

const log = logger('metadata');

/** Sources whose triggers are installed again (`recreate_event_triggers`): some, or all. */
export type Recreate = ReadonlySet<string> | true;

export class EventTriggerSync {
  /** Per source, what was last synced: its table entries, their triggers (JSON) and the catalog. */
  private readonly synced = new Map<string, { entries: readonly TableMetadata[]; triggers: string; catalog: SourceCatalog | undefined }>();

  async sync(m: Metadata, connection: (source: string) => AdminConnection | null, catalogs: Map<string, SourceCatalog>, recreate: Recreate = new Set(), strict = false): Promise<void> {
    for (const name of this.synced.keys()) if (!m.sources.some((s) => s.name === name)) this.synced.delete(name);
    for (const s of m.sources) {
      const admin = connection(s.name);
      const catalog = catalogs.get(s.name);
      if (!admin?.syncEventTriggers || !catalog?.introspection) continue;
      const again = recreate === true || recreate.has(s.name);
      const last = this.synced.get(s.name);
      const sameCatalog = last?.catalog === catalog;
      // Tables and their triggers the same objects: nothing to compare (a permission change). The
      // list is what the next change is compared with: one draft apart, it is compared where that wrote.
      if (!again && sameCatalog && samePicks(last.entries, s.tables, (t) => t.event_triggers) && samePicks(last.entries, s.tables, (t) => t.table)) {
        last.entries = s.tables;
        continue;
      }
      const specs = sourceEventTriggers(s).map(({ entry, trigger }) => installSpec(entry.table, trigger, backendFor(s.kind)?.profile.triggerOnReplication ?? false));
      const triggers = JSON.stringify(specs);
      if (!again && sameCatalog && last.triggers === triggers) {
        this.synced.set(s.name, { entries: s.tables, triggers, catalog });
        continue;
      }
      let locked: EventTriggerSyncFailure[];
      try {
        locked = [...(await admin.syncEventTriggers(specs, otherTriggers(m, s.name), again)).values()].filter((f) => f.lockTimeout);
      } catch (e) {
        log.warn('the event triggers of a source cannot be synced with its database', { source: s.name, error: e instanceof Error ? e.message : String(e) });
        continue;
      }
      if (locked.length === 0) {
        this.synced.set(s.name, { entries: s.tables, triggers, catalog });
        continue;
      }
      // Synced again next time, against what the database then has.
      this.synced.delete(s.name);
      if (strict) throw lockedTablesError(s.name, locked);
    }
  }

  /** A source leaves the metadata: its database triggers go (those another source of `m` has excepted). */
  async removed(source: string, admin: AdminConnection, m: Metadata): Promise<void> {
    this.synced.delete(source);
    await admin.syncEventTriggers?.([], otherTriggers(m, source), false);
  }
}

function lockedTablesError(source: string, locked: readonly EventTriggerSyncFailure[]): ApiError {
  const tables = [...new Set(locked.map((f) => qualifiedKey(f.table)))];
  const list = tables.map((t) => JSON.stringify(t)).join(', ');
  return new ApiError(
    409,
    'lock-timeout',
    `the event triggers of source ${JSON.stringify(source)} cannot be changed: ${tables.length === 1 ? 'table' : 'tables'} ${list} stayed locked by another session through every try; nothing was changed, try again once it is released`,
    '$',
    { tables, error: locked[0]!.error },
  );
}

/** The event trigger names of the other sources (maybe on the same database): left alone. */
function otherTriggers(m: Metadata, source: string): Set<string> {
  return new Set(m.sources.filter((s) => s.name !== source).flatMap((s) => sourceEventTriggers(s).map(({ trigger }) => String(trigger.name))));
}

/** The consistent event triggers as the delivery actor sees them (the snapshot header's `eventTriggers`). */
export function eventTriggerViews(m: Metadata, inconsistencies: readonly Inconsistency[]): EventTriggerView[] {
  const broken = new Set(inconsistencies.filter((i) => i.object.type === 'event_trigger').map((i) => i.object.name));
  const out: EventTriggerView[] = [];
  for (const s of m.sources) {
    for (const { entry, trigger } of sourceEventTriggers(s)) {
      if (broken.has(eventTriggerObjectName(String(trigger.name), entry.table, s.name))) continue;
      const view = deliveryView(s.name, entry.table, trigger, process.env);
      if (view) out.push(view);
    }
  }
  return out;
}
