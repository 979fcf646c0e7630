/**
 * Routing in the browser under `/console` (the engine answers `index.html` for any path there):
 * the path is the state, `navigate` pushes a new one, `Link` is a real link (open in a new tab
 * works) that navigates without a reload.
 */
import { createElement, useEffect, useState, type AnchorHTMLAttributes, type MouseEvent } from 'react';

export const BASE = '/console';

const listeners = new Set<() => void>();
const current = () => (location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) || '/' : '/');

window.addEventListener('popstate', () => listeners.forEach((l) => l()));

/** Goes to `path` (under the console, e.g. `/data/default`). */
export function navigate(path: string, replace = false): void {
  history[replace ? 'replaceState' : 'pushState'](null, '', BASE + path);
  listeners.forEach((l) => l());
}

/** The console path shown now (`/` for the start page); re-renders on navigation. */
export function usePath(): string {
  const [path, setPath] = useState(current);
  useEffect(() => {
    const l = () => setPath(current());
    listeners.add(l);
    return () => void listeners.delete(l);
  }, []);
  return path;
}

/** The path's segments, decoded (`/data/default/schema/public` → ['data', 'default', 'schema', 'public']). */
export const segments = (path: string): string[] => path.split('/').filter(Boolean).map(decodeURIComponent);

/** A console path from segments, each encoded. */
export const pathOf = (...parts: string[]): string => '/' + parts.map(encodeURIComponent).join('/');

export function Link({ to, ...props }: { to: string } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return createElement('a', { ...props, href: BASE + to, onClick });
}
