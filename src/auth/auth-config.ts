import type { JwtConfig } from './jwt-config.js';
import type { AuthHookConfig } from './webhook.js';

/** What authentication is configured with (`config/config.ts` reads it at boot). */
export interface AuthConfig {
  adminSecrets: string[];
  authHook: AuthHookConfig | undefined;
  jwtSecret: JwtConfig | undefined;
  /** The role of requests without credentials; without it they are refused. */
  unauthorizedRole: string | undefined;
}
