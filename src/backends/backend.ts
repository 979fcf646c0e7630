/**
 * What every backend (a kind of source database) provides, so that nothing outside
 * `backends/` depends on one dialect, split by the thread that uses it (`faces/`): a
 * translator (compiler pools), a runtime (front thread, multiplexer actors), an admin face
 * (metadata actor) and an events face (trigger-delivery actor). Modules get a backend's face
 * from `registry.ts` by the source's kind, or receive it.
 */
import { badRequest } from '../errors/admin.js';
import type { AdminFace } from './faces/admin.js';
import type { EventsFace } from './faces/events.js';
import type { Runtime } from './faces/runtime.js';
import type { Translator } from './faces/translator.js';

/** A whole backend: every face. */
export type Backend = Translator & Runtime & AdminFace & EventsFace;

/** The error for what a backend cannot do the way a request asks, naming the backend. */
export const notSupportedBy = (backend: string) => (what: string) => badRequest('not-supported', `${what} is not supported by the ${backend} backend`);
