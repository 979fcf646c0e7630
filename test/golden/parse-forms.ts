/**
 * What node-sql-parser is given of a generated statement. Its TransactSQL dialect does not
 * read some T-SQL forms the SQL Server backend writes: the `OUTPUT ... INTO @t (...)` clause
 * of INSERT/UPDATE/DELETE, `INSERT ... DEFAULT VALUES`, `IF EXISTS (...) THROW ...`. Each is
 * parsed in parts instead: the statement without its OUTPUT clause and the OUTPUT list as a
 * select list; DEFAULT VALUES as `VALUES (DEFAULT)`; the IF's condition as a CASE. Everything else is
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
  const ifThrow = IF_THROW.exec(statement);
  if (ifThrow) return [`SELECT CASE WHEN ${ifThrow[1]} THEN 1 ELSE 0 END`];
  return [statement];
}
