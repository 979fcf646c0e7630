/**
 * An error as it crosses a thread boundary (an actor's reply): whole, with its kind, status,
 * code, path and message, so that the thread it reaches answers as the thread that met it would
 * have, instead of with its message alone.
 */
import { ApiError } from './admin.js';
import { ExecutionError } from './execution.js';
import { InvalidDocumentError, MethodNotAllowed, RequestError } from './request.js';

interface WireApiError {
  kind: 'api';
  status: number;
  code: string;
  message: string;
  path: string;
  internal?: unknown;
}

export type WireError =
  | WireApiError
  | { kind: 'request'; variant: 'request' | 'invalid-document' | 'method-not-allowed'; code: string; message: string; path: string }
  | { kind: 'execution'; error: WireApiError; extensions?: Record<string, unknown> }
  | { kind: 'error'; message: string; stack?: string };

const apiToWire = (e: ApiError): WireApiError => ({ kind: 'api', status: e.status, code: e.code, message: e.message, path: e.path, ...(e.internal !== undefined ? { internal: e.internal } : {}) });
const apiFromWire = (w: WireApiError): ApiError => new ApiError(w.status, w.code, w.message, w.path, w.internal);

export function errorToWire(e: unknown): WireError {
  if (e instanceof ApiError) return apiToWire(e);
  if (e instanceof RequestError) {
    const variant = e instanceof InvalidDocumentError ? 'invalid-document' : e instanceof MethodNotAllowed ? 'method-not-allowed' : 'request';
    return { kind: 'request', variant, code: e.code, message: e.message, path: e.path };
  }
  if (e instanceof ExecutionError) return { kind: 'execution', error: apiToWire(e.error), ...(e.extensions ? { extensions: e.extensions } : {}) };
  return e instanceof Error ? { kind: 'error', message: e.message, ...(e.stack ? { stack: e.stack } : {}) } : { kind: 'error', message: String(e) };
}

export function errorFromWire(w: WireError): Error {
  switch (w.kind) {
    case 'api':
      return apiFromWire(w);
    case 'request': {
      const Kind = w.variant === 'invalid-document' ? InvalidDocumentError : w.variant === 'method-not-allowed' ? MethodNotAllowed : RequestError;
      return new Kind(w.message, w.path, w.code);
    }
    case 'execution':
      return new ExecutionError(apiFromWire(w.error), w.extensions);
    case 'error': {
      const e = new Error(w.message);
      // The stack of the thread that met it: the log says where it happened.
      if (w.stack) e.stack = w.stack;
      return e;
    }
  }
}
