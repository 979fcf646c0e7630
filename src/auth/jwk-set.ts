/**
 * The keys behind `jwk_url`. Fetched at boot (a failure stops the engine, as upstream);
 * refreshed in the background once the answer's `Cache-Control`/`Expires` says they are stale;
 * fetched again at once when a token names a key the set lacks, since providers rotate keys.
 * Fetches are one at a time and at most one a second, so tokens naming made-up keys cannot
 * turn the engine into a flood against the provider.
 */
import { createLocalJWKSet, errors, type CryptoKey, type FlattenedJWSInput, type JWSHeaderParameters, type LocalJWKSet } from 'jose';
import { logger } from '../log.js';
import { jwkSetExpiry } from './expiry.js';
import type { HttpClient, IncomingAnswer } from '../outgoing/http-client.js';

const log = logger('jwk-refresh-log');

const MIN_FETCH_INTERVAL_MS = 1000;

interface FetchedSet {
  keys: LocalJWKSet;
  /** Undefined: the provider does not say, so the set is not refreshed on time. */
  expiresAt: number | undefined;
}

export class RemoteJwkSet {
  private lastFetchAt = Date.now();
  private fetching: Promise<void> | undefined;

  private constructor(
    private readonly url: URL,
    private readonly client: HttpClient,
    private current: FetchedSet,
  ) {}

  /** Rejects with an `Error` saying why the first fetch failed. */
  static async load(url: string, client: HttpClient): Promise<RemoteJwkSet> {
    const at = new URL(url);
    return new RemoteJwkSet(at, client, await fetchSet(at, client));
  }

  /**
   * The key set now in use while it is fresh, else null: signatures verified with one
   * set are trusted only as long as that set is current (see VerifiedTokens).
   */
  readonly generation = (): object | null => (this.current.expiresAt !== undefined && Date.now() >= this.current.expiresAt ? null : this.current);

  /** The key resolver handed to `compactVerify`. */
  readonly resolve = async (header: JWSHeaderParameters, token: FlattenedJWSInput): Promise<CryptoKey> => {
    // Stale keys keep serving while the refresh runs, as upstream refreshes in the background.
    if (this.current.expiresAt !== undefined && Date.now() >= this.current.expiresAt) void this.refresh();
    try {
      return await this.current.keys(header, token);
    } catch (e) {
      if (!(e instanceof errors.JWKSNoMatchingKey) || (!this.fetching && !this.mayFetch())) throw e;
      await this.refresh();
      return this.current.keys(header, token);
    }
  };

  private mayFetch(): boolean {
    return Date.now() - this.lastFetchAt >= MIN_FETCH_INTERVAL_MS;
  }

  /** Joins the fetch under way, or starts one if allowed; a failure keeps the keys we have. */
  private refresh(): Promise<void> {
    if (!this.fetching && this.mayFetch()) {
      this.lastFetchAt = Date.now();
      this.fetching = fetchSet(this.url, this.client)
        .then((set) => {
          this.current = set;
        })
        .catch((e: unknown) => log.warn('JWK refresh failed; keeping the previous keys', { url: this.url.href, error: e instanceof Error ? e.message : String(e) }))
        .finally(() => {
          this.fetching = undefined;
        });
    }
    return this.fetching ?? Promise.resolve();
  }
}

async function fetchSet(url: URL, client: HttpClient): Promise<FetchedSet> {
  let answer: IncomingAnswer;
  try {
    answer = await client.send(url, { method: 'GET', headers: { accept: 'application/json' } });
  } catch (e) {
    throw new Error(`Error fetching JWK from ${url.href}: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (answer.status < 200 || answer.status > 299) throw new Error(`Non-2xx response (${answer.status}) on fetching JWK from: ${url.href}`);
  let keys: LocalJWKSet;
  try {
    keys = createLocalJWKSet(JSON.parse(answer.body.toString('utf8')));
  } catch (e) {
    throw new Error(`Error parsing JWK from url: ${url.href}: ${e instanceof Error ? e.message : String(e)}`);
  }
  return { keys, expiresAt: jwkSetExpiry(answer.headers['cache-control'], answer.headers['expires'], Date.now()) };
}
