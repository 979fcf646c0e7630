/**
 * What node-sql-parser is given of a generated statement. Its TransactSQL dialect does not
 * read some T-SQL forms the SQL Server backend writes: the `OUTPUT ... INTO @t (...)` clause
 * of INSERT/UPDATE/DELETE/MERGE, `INSERT ... DEFAULT VALUES`, `MERGE`, `IF EXISTS (...) THROW ...`.
 * Each is parsed in parts instead: the statement without its OUTPUT clause and the OUTPUT list
 * as a select list; DEFAULT VALUES as `VALUES (DEFAULT)`; a MERGE as the SELECT of its matched
 * rows, the UPDATE of them and the INSERT from its source; the IF's condition as a CASE. Everything else is
 * given as it is (and every BigQuery statement).
 */
const OUTPUT = /^(.*?) OUTPUT ((?:INSERTED|DELETED)\.\[[^\]]+\](?:, (?:INSERTED|DELETED)\.\[[^\]]+\])*) INTO @\w+ \(([^)]*)\)(.*)$/s;
const IF_THROW = /^IF (EXISTS \(.*\)) THROW \d+, N'[^']*', \d+$/s;

/** The statements to parse for one generated statement (`database`: node-sql-parser's dialect name). */
export function parseForms(statement: string, database: string): string[] {
  if (database !== 'TransactSQL') return [statement];
  const output = OUTPUT.exec(statement);
  if (output) return [...parseForms(`${output[1]}${output[4]}`, database), `SELECT ${output[2]}`, `SELECT ${output[3]}`];
  if (/^INSERT INTO \S+ DEFAULT VALUES$/.test(statement)) return [statement.replace(/DEFAULT VALUES$/, 'VALUES (DEFAULT)')];
  if (statement.startsWith('MERGE INTO ')) return mergeParts(statement);
  const ifThrow = IF_THROW.exec(statement);
  if (ifThrow) return [`SELECT CASE WHEN ${ifThrow[1]} THEN 1 ELSE 0 END`];
  return [statement];
}

/** `MERGE INTO t WITH (HOLDLOCK) AS a USING u ON (on) [WHEN MATCHED [AND (w)] THEN UPDATE SET sets] WHEN NOT MATCHED THEN INSERT (c) VALUES (v)`, as the backend writes it. */
function mergeParts(statement: string): string[] {
  const cut = (text: string, marker: string): [string, string] => {
    const at = text.indexOf(marker);
    if (at < 0) throw new Error(`not a MERGE as the backend writes it (no ${JSON.stringify(marker)}): ${statement}`);
    return [text.slice(0, at), text.slice(at + marker.length)];
  };
  const [table, afterTable] = cut(statement.slice('MERGE INTO '.length), ' WITH (HOLDLOCK) AS ');
  const [alias, afterAlias] = cut(afterTable, ' USING ');
  const [using, afterUsing] = cut(afterAlias, ' ON (');
  const insertAt = afterUsing.lastIndexOf(' WHEN NOT MATCHED THEN INSERT (');
  const [columns, values] = cut(afterUsing.slice(insertAt + ' WHEN NOT MATCHED THEN INSERT ('.length), ') VALUES (');
  const insert = `INSERT INTO ${table} (${columns}) SELECT ${values.replace(/\)$/, '')} FROM ${using}`;
  const head = afterUsing.slice(0, insertAt);
  const matchedAt = head.indexOf(') WHEN MATCHED');
  if (matchedAt < 0) return [`SELECT 1 FROM ${table} AS ${alias} INNER JOIN ${using} ON (${head}`, insert];
  const on = head.slice(0, matchedAt);
  const matched = head.slice(matchedAt + ') WHEN MATCHED'.length);
  const [when, sets] = cut(matched, ' THEN UPDATE SET ');
  const join = `FROM ${table} AS ${alias} INNER JOIN ${using} ON (${on})`;
  const where = when.startsWith(' AND (') ? ` WHERE ${when.slice(' AND '.length)}` : '';
  return [`SELECT 1 ${join}${where}`, `UPDATE ${alias} SET ${sets} ${join}`, insert];
}
