/**
 * The GraphQL scalars of an asynchronous action's result fields: the types of the action log's
 * columns in the metadata database (`action-log.ts`), named as the well-known engine's schema
 * names them. Apart from the log so that the schema builder loads no database driver.
 */
export const ACTION_RESULT_SCALARS = { id: 'uuid', created_at: 'timestamptz', errors: 'json' } as const;
