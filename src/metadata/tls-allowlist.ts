/**
 * The TLS allow-list (spec "TLS allow-list entry", "Network options"): the hosts whose
 * certificates outgoing HTTPS calls do not verify, stored as the well-known engine exports it,
 * `network.tls_allowlist: [{host, suffix?, permissions?}]`. An entry given as a bare host name
 * is stored as `{host}`. Entries are told apart by host and suffix (a host may be listed once
 * per suffix, and once without one).
 */
import { alreadyExists, notExists } from '../errors/admin.js';
import { arrayOf, isObject, nonEmptyStr, ObjectReader, oneOf, type Json, type JsonObject } from '../util/decode.js';
import { firstRepeat } from '../util/first-repeat.js';
import type { Metadata } from './types.js';

export const TLS_PERMISSIONS = ['self-signed'] as const;

export interface TlsAllowEntry {
  host: string;
  /** Usually a port number: the entry then covers that port only. */
  suffix?: string;
  permissions?: (typeof TLS_PERMISSIONS)[number][];
}

/** An entry: `{host, suffix?, permissions?}`, or the host name alone. */
export function tlsAllowEntry(v: unknown, path: string): TlsAllowEntry {
  if (typeof v === 'string') return { host: nonEmptyStr(v, path) };
  const r = ObjectReader.of(v, path);
  const e: TlsAllowEntry = { host: r.required('host', nonEmptyStr) };
  const suffix = r.optional('suffix', nonEmptyStr);
  if (suffix !== undefined) e.suffix = suffix;
  const permissions = r.optional('permissions', arrayOf(oneOf(TLS_PERMISSIONS, 'TLS permission')));
  if (permissions !== undefined) e.permissions = permissions;
  r.done();
  return e;
}

const sameEntry = (e: TlsAllowEntry, host: string, suffix: string | undefined) => e.host === host && e.suffix === suffix;
const described = (host: string, suffix: string | undefined) => `the host ${JSON.stringify(host)}${suffix === undefined ? '' : ` with suffix ${JSON.stringify(suffix)}`}`;

export function tlsAllowlist(m: Metadata): TlsAllowEntry[] {
  const network = m.network;
  const list = isObject(network) ? network.tls_allowlist : undefined;
  return Array.isArray(list) ? (list.filter(isObject) as unknown as TlsAllowEntry[]) : [];
}

/** Sets the list, keeping any other `network` key; an empty list leaves no `network` section behind. */
export function setTlsAllowlist(m: Metadata, list: TlsAllowEntry[]): void {
  const { tls_allowlist: _, ...others } = isObject(m.network) ? m.network : ({} as JsonObject);
  const network: JsonObject = list.length > 0 ? { ...others, tls_allowlist: list as unknown as Json } : others;
  if (Object.keys(network).length > 0) m.network = network;
  else delete m.network;
}

export function addTlsAllowEntry(list: readonly TlsAllowEntry[], e: TlsAllowEntry, path: string): TlsAllowEntry[] {
  if (list.some((x) => sameEntry(x, e.host, e.suffix))) throw alreadyExists(`${described(e.host, e.suffix)} already exists in the allowlist`, path);
  return [...list, e];
}

export function dropTlsAllowEntry(list: readonly TlsAllowEntry[], host: string, suffix: string | undefined, path: string): TlsAllowEntry[] {
  if (!list.some((x) => sameEntry(x, host, suffix))) throw notExists(`${described(host, suffix)} isn't present in the allowlist`, path);
  return list.filter((x) => !sameEntry(x, host, suffix));
}

/** The `network` section of a whole document: its entries checked, none listed twice. */
export function tlsAllowlistSection(v: unknown, path: string): TlsAllowEntry[] {
  if (v === undefined || v === null) return [];
  const r = ObjectReader.of(v, path);
  const list = r.withDefault('tls_allowlist', arrayOf(tlsAllowEntry), []);
  const i = firstRepeat(list, (e) => JSON.stringify([e.host, e.suffix ?? null]));
  if (i >= 0) throw alreadyExists(`${described(list[i]!.host, list[i]!.suffix)} is listed more than once`, `${path}.tls_allowlist[${i}]`);
  return list;
}
