/** add_host_to_tls_allowlist, drop_host_from_tls_allowlist (spec "Network options"), on /v1/metadata. */
import { nonEmptyStr, ObjectReader } from '../../../util/decode.js';
import { addTlsAllowEntry, dropTlsAllowEntry, setTlsAllowlist, tlsAllowEntry, tlsAllowlist } from '../../../metadata/tls-allowlist.js';
import { SUCCESS, type Command } from './context.js';

export const addHostToTlsAllowlist: Command = (ctx, args, path) => {
  const e = tlsAllowEntry(args, path);
  setTlsAllowlist(ctx.metadata, addTlsAllowEntry(tlsAllowlist(ctx.metadata), e, path));
  return { metadata: ctx.metadata, response: SUCCESS };
};

/** `{host, suffix?}` (the suffix as the newer well-known engine takes it: an entry is host and suffix), or the host alone. */
export const dropHostFromTlsAllowlist: Command = (ctx, args, path) => {
  let host: string;
  let suffix: string | undefined;
  if (typeof args === 'string') host = nonEmptyStr(args, path);
  else {
    const r = ObjectReader.of(args, path);
    host = r.required('host', nonEmptyStr);
    suffix = r.optional('suffix', nonEmptyStr);
    r.done();
  }
  setTlsAllowlist(ctx.metadata, dropTlsAllowEntry(tlsAllowlist(ctx.metadata), host, suffix, path));
  return { metadata: ctx.metadata, response: SUCCESS };
};
