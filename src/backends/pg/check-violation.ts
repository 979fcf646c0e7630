/**
 * The text a mutation's failed permission check raises inside its statement: written by the
 * translator (translate/mutation.ts), recognised by the runtime (data-errors.ts), which share
 * only this.
 */
export const CHECK_VIOLATION = 'service-permission-check-failed:';
