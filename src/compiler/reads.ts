/**
 * The tables a compiled operation depends on, read off its IR: every `{schema, name}` the IR
 * mentions (row sources, relationship targets, tables in `_exists` and permission filters;
 * functions and types too, which only makes eviction a little eager). A walk over plain
 * data, so that a new IR node cannot be forgotten here.
 */
import { tableKey } from '../catalog/types.js';

export function addTablesRead(ir: unknown, source: string, into: Set<string>): void {
  const seen = new Set<object>();
  const stack: unknown[] = [ir];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null || seen.has(v)) continue;
    seen.add(v);
    const o = v as Record<string, unknown>;
    if (typeof o.schema === 'string' && typeof o.name === 'string') into.add(tableKey(source, { schema: o.schema, name: o.name }));
    for (const k in o) stack.push(o[k]);
  }
}
