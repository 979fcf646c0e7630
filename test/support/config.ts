/** Loading the boot configuration in tests. */
import { ConfigError, loadConfig, type Config } from '../../src/config/config.js';

export const load = (env: Record<string, string>, argv: string[] = []): Config => loadConfig(argv, env);

/** The message a refused configuration stops the engine with. */
export function refusal(env: Record<string, string>, argv: string[] = []): string {
  try {
    load(env, argv);
  } catch (e) {
    if (e instanceof ConfigError) return e.message;
    throw e;
  }
  throw new Error('the configuration was accepted');
}
