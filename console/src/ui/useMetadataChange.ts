/**
 * A button's metadata command: `run(type, args)` sends it to `/v1/metadata` (with `base`, the
 * args are an object laid over it: a source and table every command of a page names), then reads
 * the metadata again; it answers true once done (undefined when refused, the failure then in `error`).
 */
import { metadata as callMetadata } from '../api/client';
import { useMetadata } from '../api/metadata';
import { useAction } from './useAction';

export function useMetadataChange(base?: Record<string, unknown>) {
  const { refresh } = useMetadata();
  return useAction(async (type: string, args: unknown = {}) => {
    await callMetadata(type, base ? { ...base, ...(args as Record<string, unknown>) } : args);
    await refresh();
    return true as const;
  });
}
