/**
 * What node-sql-parser is given of a generated statement. Its TransactSQL dialect does not
 * read some T-SQL forms the SQL Server backend writes; each is parsed in parts instead:
 * - an `OUTPUT <list> [INTO @t (<columns>)]` clause (INSERT/UPDATE/DELETE/MERGE): the statement
 *   without it, the list as a select list, the INTO columns as one;
 * - `INSERT ... DEFAULT VALUES`: as `VALUES (DEFAULT)`;
 * - `MERGE`: the SELECT of its matched rows, the UPDATE of them and the INSERT from its source;
 * - `IF <condition> THROW|EXEC(N'...')|BEGIN ...; END`: the condition as a CASE, then what
 *   it runs (the EXEC's text, the block's statements);
 * - `CREATE TRIGGER ... AS BEGIN ...; END`: the body's statements;
 * - `STRING_AGG(...) WITHIN GROUP (ORDER BY <key>)` (a join step's answer): without the
 *   WITHIN GROUP clause;
 * - `DROP TRIGGER IF EXISTS <name>`, `EXEC <procedure> @name = @p1` (a variable argument) and
 *   `EXEC @granted = sp_getapplock ...` (a return value): nothing the parser reads (`UNPARSED`).
 * Everything else is given as it is (and every BigQuery statement).
 */
const IF = /^IF (.+?) (THROW \d+, N'[^']*', \d+|EXEC\(N'((?:[^']|'')*)'\)|BEGIN (.*); END)$/s;
const WITHIN_GROUP = / WITHIN GROUP \(ORDER BY [^()]*\)/;
const UNPARSED = [
  /^DROP TRIGGER IF EXISTS \[[^\]]+\]\.\[[^\]]+\]$/,
  /^EXEC sp_set_session_context @key = N'[^']*', @value = @p1$/,
  /^EXEC @granted = sp_getapplock @Resource = @p\d+, @LockMode = N'Exclusive', @LockOwner = N'Transaction', @LockTimeout = \d+$/,
];

/** The statements to parse for one generated statement (`database`: node-sql-parser's dialect name). */
export function parseForms(statement: string, database: string): string[] {
  if (database !== 'TransactSQL') return [statement];
  if (UNPARSED.some((u) => u.test(statement))) return [];
  if (WITHIN_GROUP.test(statement)) return parseForms(statement.replace(WITHIN_GROUP, ''), database);
  const output = withoutOutput(statement);
  if (output) return [...parseForms(output.statement, database), `SELECT ${output.list}`, ...(output.into ? [`SELECT ${output.into}`] : [])];
  if (/^INSERT INTO \S+ DEFAULT VALUES$/.test(statement)) return [statement.replace(/DEFAULT VALUES$/, 'VALUES (DEFAULT)')];
  if (statement.startsWith('MERGE INTO ')) return mergeParts(statement);
  const trigger = /^CREATE TRIGGER \S+ ON \S+ AFTER (?:INSERT|UPDATE|DELETE)(?: NOT FOR REPLICATION)? AS\nBEGIN\n(.*);\nEND$/s.exec(statement);
  if (trigger) return trigger[1]!.split(';\n').flatMap((s) => parseForms(s, database));
  const ifThen = IF.exec(statement);
  if (ifThen) {
    const condition = `SELECT CASE WHEN ${ifThen[1]} THEN 1 ELSE 0 END`;
    if (ifThen[3] !== undefined) return [condition, ...parseForms(ifThen[3].replace(/''/g, "'"), database)];
    if (ifThen[4] !== undefined) return [condition, ...ifThen[4].split('; ').flatMap((s) => parseForms(s, database))];
    return [condition];
  }
  return [statement];
}

/** The statement without its OUTPUT clause: the clause's list ends where the statement goes on (INTO @t, VALUES, FROM, WHERE, DEFAULT VALUES, the end). */
function withoutOutput(statement: string): { statement: string; list: string; into: string | null } | null {
  const at = statement.indexOf(' OUTPUT ');
  if (at < 0) return null;
  const rest = statement.slice(at + ' OUTPUT '.length);
  const ends = [' INTO @', ' VALUES ', ' FROM ', ' WHERE ', ' DEFAULT VALUES'].map((m) => rest.indexOf(m)).filter((i) => i >= 0);
  const end = ends.length > 0 ? Math.min(...ends) : rest.length;
  const list = rest.slice(0, end);
  const after = rest.slice(end);
  const into = /^ INTO @\w+ \(([^)]*)\)(.*)$/s.exec(after);
  if (into) return { statement: statement.slice(0, at) + into[2], list, into: into[1]! };
  return { statement: statement.slice(0, at) + after, list, into: null };
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
