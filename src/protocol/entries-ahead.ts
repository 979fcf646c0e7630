/**
 * The table entries of a change that replaces most of a source's (replace_metadata), sent to the
 * schema builder as soon as the metadata actor has decoded them, in parts as it writes them out:
 * the builder reads them, and resolves the document they make, while the actor checks and stores
 * the change. The change's staged snapshot then takes each entry line that is the same text as
 * read ahead. At 5,000 tables × 11 roles the builder's reading and resolution (0.85 s) started
 * only once the store was written, and ended 0.5-1 s after the answer, before the first query
 * could even start.
 */
import { tableEntryText } from '../metadata/document-parts.js';
import type { TableMetadata } from '../metadata/types.js';
import { TextLines } from './text-lines.js';

/** Entries per part: the builder starts on the first part while the actor writes out the next. */
export const ENTRIES_PER_PART = 500;

/** One part: a line `{"source": name}`, then an entry's stored text per line. */
export function encodeEntriesAhead(source: string, entries: readonly TableMetadata[]): Uint8Array<SharedArrayBuffer> {
  const pieces = [JSON.stringify({ source })];
  for (const e of entries) pieces.push('\n', tableEntryText(e));
  const bytes = new Uint8Array(new SharedArrayBuffer(pieces.reduce((n, p) => n + Buffer.byteLength(p), 0)));
  const out = Buffer.from(bytes.buffer);
  let offset = 0;
  for (const p of pieces) offset += out.write(p, offset);
  return bytes;
}

/** The entries read ahead, per source in order and by their text, and the state they were read on. */
export class EntriesAhead<State> {
  private readonly sources = new Map<string, { byText: Map<string, TableMetadata>; list: TableMetadata[] }>();

  /** `on`: the reader's state the entries were read against (an entry shares the parts of that state's entry of its table). */
  constructor(readonly on: State) {}

  /** Reads a part with `read` (a snapshot update's reading of one entry line, against its source's entries in `on`). */
  add(bytes: Uint8Array, read: (text: string, source: string) => TableMetadata): void {
    const lines = new TextLines(bytes);
    const { source } = JSON.parse(lines.next()) as { source: string };
    let sent = this.sources.get(source);
    if (!sent) this.sources.set(source, (sent = { byText: new Map(), list: [] }));
    while (lines.more) {
      const text = lines.next();
      const entry = read(text, source);
      sent.byText.set(text, entry);
      sent.list.push(entry);
    }
  }

  /** The entry read ahead from this text of the source's, if any. */
  take(source: string, text: string): TableMetadata | undefined {
    return this.sources.get(source)?.byText.get(text);
  }

  /** Each source's entries, in the order sent. */
  lists(): ReadonlyMap<string, readonly TableMetadata[]> {
    return new Map([...this.sources].map(([name, s]) => [name, s.list]));
  }
}
