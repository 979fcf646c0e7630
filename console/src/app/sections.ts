/** The console's top-level sections, in the navigation's order: each owns the paths under its `path`. */
import { lazy, type ComponentType } from 'react';

/** `rest`: the path's segments after the section's own. */
export type SectionPage = ComponentType<{ rest: string[] }>;

export interface Section {
  path: string;
  title: string;
  /** Starts loading the section's code (its own chunk); the page waits for the same load. */
  load: () => Promise<{ default: SectionPage }>;
  page: SectionPage;
}

const section = (path: string, title: string, load: () => Promise<{ default: SectionPage }>): Section => ({ path, title, load, page: lazy(load) });

export const SECTIONS: Section[] = [
  section('api', 'API', () => import('../sections/explorer')),
  section('data', 'Data', () => import('../sections/data')),
  section('actions', 'Actions', () => import('../sections/actions')),
  section('remote-schemas', 'Remote Schemas', () => import('../sections/remote-schemas')),
  section('events', 'Events', () => import('../sections/events')),
  section('settings', 'Settings', () => import('../sections/settings')),
];

/**
 * Starts loading the section a path opens while the console checks its access, rather than
 * after (the first load of the API section would otherwise wait for the check, then for its
 * chunk, then for GraphiQL's).
 */
export function preloadSection(path: string[]): void {
  void SECTIONS.find((s) => s.path === path[0])
    ?.load()
    .catch(() => {});
}
