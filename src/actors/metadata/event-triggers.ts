/**
 * Keeps each source's database triggers on exactly its metadata's event triggers (spec
 * "Event trigger"), as `change-capture.ts` does for live queries: run as each metadata
 * version is taken, so tracking, untracking, run_sql renames, clear_metadata,
 * replace_metadata and dropped sources all end with the database triggers of the document in
 * effect. Unlike change capture, it runs before the answer: a client that creates a trigger
 * and then writes expects the write to be captured. A source whose triggers and catalog are
 * what was last synced costs no statement; `reload_metadata` with `recreate_event_triggers`
 * installs its triggers again. Never fails the metadata call: a trigger that cannot be
 * installed is logged.
 */
import type { AdminConnection } from '../../backends/backend.js';
import { deliveryView, eventTriggerObjectName, installSpec, sourceEventTriggers, type EventTriggerView } from '../../metadata/event-triggers.js';
import type { Inconsistency, SourceCatalog } from '../../metadata/resolve.js';
import type { Metadata } from '../../metadata/types.js';
import { log } from '../../log.js';

/** Sources whose triggers are installed again (`recreate_event_triggers`): some, or all. */
export type Recreate = ReadonlySet<string> | true;

export class EventTriggerSync {
  private readonly synced = new Map<string, { triggers: string; catalog: SourceCatalog | undefined }>();

  async sync(m: Metadata, connection: (source: string) => AdminConnection | null, catalogs: Map<string, SourceCatalog>, recreate: Recreate = new Set()): Promise<void> {
    for (const name of this.synced.keys()) if (!m.sources.some((s) => s.name === name)) this.synced.delete(name);
    for (const s of m.sources) {
      const admin = connection(s.name);
      const catalog = catalogs.get(s.name);
      if (!admin?.syncEventTriggers || !catalog?.introspection) continue;
      const specs = sourceEventTriggers(s).map(({ entry, trigger }) => installSpec(entry.table, trigger, s.kind));
      const triggers = JSON.stringify(specs);
      const again = recreate === true || recreate.has(s.name);
      const last = this.synced.get(s.name);
      if (!again && last && last.triggers === triggers && last.catalog === catalog) continue;
      try {
        await admin.syncEventTriggers(specs, otherTriggers(m, s.name), again);
        this.synced.set(s.name, { triggers, catalog });
      } catch (e) {
        log.warn('the event triggers of a source cannot be synced with its database', { source: s.name, error: e instanceof Error ? e.message : String(e) });
      }
    }
  }

  /** A source leaves the metadata: its database triggers go (those another source of `m` has excepted). */
  async removed(source: string, admin: AdminConnection, m: Metadata): Promise<void> {
    this.synced.delete(source);
    await admin.syncEventTriggers?.([], otherTriggers(m, source), false);
  }
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
