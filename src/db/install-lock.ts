/**
 * The lock every one-time install of this engine's objects in a PostgreSQL database takes for
 * its transaction: the metadata store's tables, the event log, the change-capture function.
 * Several engines start together on one database, and a source may be the metadata database
 * too: `CREATE SCHEMA IF NOT EXISTS` or `CREATE OR REPLACE FUNCTION` run at the same time by two
 * sessions can fail on a catalog's unique index (`pg_namespace_nspname_index`,
 * `pg_proc_proname_args_nsp_index`), so they run one at a time, each seeing the others' work.
 */
export const INSTALL_LOCK = `SELECT pg_advisory_xact_lock(hashtext('service_catalog'))`;
