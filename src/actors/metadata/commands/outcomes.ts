/**
 * The well-known engine's answer when a change leaves metadata inconsistent: the
 * changed object's own problems (400 invalid-configuration, its reasons), else every
 * new inconsistency (400 unexpected).
 */
import { ApiError } from '../../../errors/admin.js';
import type { InconsistentObject } from '../../../metadata/types.js';
import type { CommandResult } from './context.js';
import { cannotDrop, describeDependent } from '../../../metadata/dependencies.js';

/**
 * `own`: the changed object's inconsistency name (`select_permission user in table author in
 * source default`), or which inconsistencies are the changed object's.
 */
export function changeOutcome(own: string | ((o: InconsistentObject) => boolean), path: string): Pick<CommandResult, 'inconsistencyError'> {
  const isOwn = typeof own === 'string' ? (o: InconsistentObject) => o.name === own : own;
  return {
    inconsistencyError: (objects: InconsistentObject[]) => {
      const mine = objects.filter(isOwn);
      if (mine.length > 0) return new ApiError(400, 'invalid-configuration', mine.map((o) => o.reason).join(', '), path, mine);
      return new ApiError(400, 'unexpected', 'cannot continue due to new inconsistent metadata', path, objects);
    },
  };
}

/**
 * For a drop: what the change leaves inconsistent is what depends on the dropped
 * object. Without `cascade` the request fails listing them; with it, they go too.
 */
export function cascadeDependents(cascade: boolean, path: string): Pick<CommandResult, 'consistency' | 'inconsistencyError'> {
  return {
    consistency: cascade ? 'cascade' : 'refuse-new',
    inconsistencyError: (objects) => cannotDrop(objects.map(describeDependent), path),
  };
}
