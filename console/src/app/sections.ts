/** The console's top-level sections, in the navigation's order: each owns the paths under its `path`. */
import { lazy, type ComponentType } from 'react';

/** `rest`: the path's segments after the section's own. */
export type SectionPage = ComponentType<{ rest: string[] }>;

export interface Section {
  path: string;
  title: string;
  page: SectionPage;
}

export const SECTIONS: Section[] = [
  { path: 'api', title: 'API', page: lazy(() => import('../sections/explorer')) },
  { path: 'data', title: 'Data', page: lazy(() => import('../sections/data')) },
  { path: 'actions', title: 'Actions', page: lazy(() => import('../sections/actions')) },
  { path: 'remote-schemas', title: 'Remote Schemas', page: lazy(() => import('../sections/remote-schemas')) },
  { path: 'events', title: 'Events', page: lazy(() => import('../sections/events')) },
  { path: 'settings', title: 'Settings', page: lazy(() => import('../sections/settings')) },
];
