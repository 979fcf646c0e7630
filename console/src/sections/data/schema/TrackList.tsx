/**
 * One of the schema page's "untracked" lists, as the well-known console lays them out: a heading
 * with "Track all", then each item with its own "Track"; every button sends its calls in one go.
 */
import type { ReactNode } from 'react';

export interface Call {
  type: string;
  args: unknown;
}

export interface Trackable {
  key: string;
  /** The item's cells before its button. */
  cells: ReactNode[];
  /** The button's accessible name (`Track author`). */
  label: string;
  call: Call;
}

export function TrackList({ title, allLabel, empty, items, busy, onTrack }: { title: string; allLabel: string; empty: string; items: Trackable[]; busy: boolean; onTrack: (calls: Call[]) => unknown }) {
  return (
    <section aria-label={title}>
      <div className="row">
        <h2>{title}</h2>
        {items.length > 0 && (
          <button type="button" className="secondary" disabled={busy} onClick={() => void onTrack(items.map((i) => i.call))}>
            {allLabel}
          </button>
        )}
      </div>
      {items.length === 0 ? (
        <p>{empty}</p>
      ) : (
        <table>
          <tbody>
            {items.map((item) => (
              <tr key={item.key}>
                {item.cells.map((cell, i) => (
                  <td key={i}>{cell}</td>
                ))}
                <td>
                  <button type="button" disabled={busy} aria-label={item.label} onClick={() => void onTrack([item.call])}>
                    Track
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
