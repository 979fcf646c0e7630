/**
 * The observability libraries are loaded only when their feature is on: prom-client with the
 * metrics API, the OpenTelemetry SDK and its exporter when a setting turns tracing on (they take
 * 100-160 ms to load). No thread loads them when it starts.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadedClosure, SRC } from '../support/source-imports.js';

const THREADS = ['main.ts', 'actors/compiler/worker.ts', 'actors/schema-builder/worker.ts', 'actors/multiplexer/worker.ts', 'actors/events/worker.ts', 'actors/metadata/worker.ts'];
/** A package loaded by a static import that is not of types alone. */
const LOADS = /^\s*import\s+(?!type\b)[^'";]*?from\s+['"](prom-client|@opentelemetry\/(?:sdk-trace-base|exporter-trace-otlp-proto|resources))['"]/gm;

describe('observability libraries', () => {
  it('are loaded by no thread when it starts', () => {
    for (const entry of THREADS) {
      const loading = loadedClosure(join(SRC, entry)).flatMap((f) => [...readFileSync(f, 'utf8').matchAll(LOADS)].map((m) => `${relative(SRC, f)} loads ${m[1]}`));
      expect(loading, entry).toEqual([]);
    }
  });
});
