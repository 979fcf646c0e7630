import pg from 'pg';
const c = new pg.Client({ connectionString: process.argv[2] }); await c.connect();
const r = await c.query('SELECT key, entry::text AS e FROM service_catalog.metadata_tables ORDER BY position');
const rows = r.rows; console.log(rows.length, 'rows', rows.reduce((a, x) => a + x.e.length, 0) / 2 ** 20, 'MiB');
for (const [name, ddl] of [['json main', 'entry json'], ['json external', 'entry json'], ['text external', 'entry text'], ['json main2', 'entry json']]) {
  await c.query('DROP TABLE IF EXISTS tmp_entries'); await c.query(`CREATE TABLE tmp_entries (source text, key text, position int, ${ddl}, PRIMARY KEY (source, key))`);
  if (name.includes('external')) await c.query('ALTER TABLE tmp_entries ALTER COLUMN entry SET STORAGE EXTERNAL');
  const t = performance.now();
  await c.query('BEGIN');
  for (let from = 0; from < rows.length; from += 2000) {
    const values = ['s']; const parts = [];
    for (const [i, x] of rows.slice(from, from + 2000).entries()) { values.push(x.key, x.e); parts.push(`($${values.length - 1}, ${i}, $${values.length}${ddl.includes('json') ? '::json' : ''})`); }
    await c.query(`INSERT INTO tmp_entries (source, key, position, entry) SELECT $1, x.key, x.n, x.entry FROM (VALUES ${parts.join(',')}) AS x(key, n, entry)`, values);
  }
  await c.query('COMMIT');
  console.log(name, (performance.now() - t).toFixed(0), 'ms');
}
await c.query('DROP TABLE IF EXISTS tmp_entries'); await c.end();
