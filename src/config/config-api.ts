/**
 * `GET /v1alpha1/config` (the well-known engine's config API, admin only): what the server was
 * started with, never a secret itself (whether one is set, the JWT's claims settings, not its key).
 */
import type { JwtConfig } from '../auth/jwt-config.js';
import type { Config } from './config.js';

function jwtInfo(jwt: JwtConfig): Record<string, unknown> {
  const c = jwt.claims;
  if (c.kind === 'map') return { claims_namespace: null, claims_format: 'json' };
  const where = 'key' in c.location ? { claims_namespace: c.location.key } : { claims_namespace: '', claims_namespace_path: c.location.path.text };
  return { ...where, claims_format: c.format };
}

/** The answer's body; the same for every call (the settings are read at boot). */
export function configApiBody(config: Config, version: string): string {
  const subscriptions = { batch_size: config.liveQueryBatchSize, refetch_delay: config.liveQueryIntervalMs / 1000 };
  return JSON.stringify({
    version,
    is_function_permissions_inferred: true,
    is_remote_schema_permissions_enabled: config.enableRemoteSchemaPermissions,
    is_admin_secret_set: config.adminSecrets.length > 0,
    is_auth_hook_set: config.authHook !== undefined,
    is_jwt_set: config.jwtSecret !== undefined,
    jwt: config.jwtSecret ? [jwtInfo(config.jwtSecret)] : [],
    is_allow_list_enabled: config.enableAllowlist,
    live_queries: subscriptions,
    streaming_queries: subscriptions,
    console_assets_dir: config.console.assetsDir ?? null,
    experimental_features: [],
    is_prometheus_metrics_enabled: config.enabledApis.has('metrics'),
    default_naming_convention: 'service-default',
    feature_flags: [],
    is_apollo_federation_enabled: false,
  });
}
