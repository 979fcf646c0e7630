/**
 * A button's metadata call on a source (and table): `run(type, args)` sends `{...base, ...args}`
 * to `/v1/metadata`, then reads the metadata again; it answers true once done (undefined when
 * refused, the failure then in `error`).
 */
import { metadata as callMetadata } from '../../api/client';
import { useMetadata } from '../../api/metadata';
import { useAction } from '../../ui/useAction';

export function useMetadataChange(base: Record<string, unknown>) {
  const { refresh } = useMetadata();
  return useAction(async (type: string, args: Record<string, unknown> = {}) => {
    await callMetadata(type, { ...base, ...args });
    await refresh();
    return true as const;
  });
}
