/** The layout of the golden files' SQL (`format-sql.ts`): clauses on their lines, quotes and parentheses read as such. */
import { describe, expect, it } from 'vitest';
import { formatSql } from './format-sql.js';

describe('formatSql', () => {
  it('puts top-level clauses on lines of their own and subqueries, indented, between their parentheses', () => {
    const sql = 'SELECT coalesce(json_agg("s".root ORDER BY "s"."o" ASC), \'[]\') AS root FROM (SELECT "a".* FROM "public"."a" AS "a"  WHERE ("a"."id" > 1) ORDER BY "a"."id" LIMIT 2) AS "s" LEFT OUTER JOIN LATERAL (SELECT 1) AS "b" ON true;';
    expect(formatSql(sql, 'postgres')).toBe(
      [
        'SELECT coalesce(json_agg("s".root ORDER BY "s"."o" ASC), \'[]\') AS root',
        'FROM (',
        '  SELECT "a".*',
        '  FROM "public"."a" AS "a"',
        '  WHERE ("a"."id" > 1)',
        '  ORDER BY "a"."id"',
        '  LIMIT 2',
        ') AS "s"',
        'LEFT OUTER JOIN LATERAL (',
        '  SELECT 1',
        ') AS "b" ON true;',
      ].join('\n'),
    );
  });

  it('reads no clause or parenthesis inside quoted identifiers and literals', () => {
    const pg = `SELECT "from (" AS "where", E'a\\\\'' FROM (' AS x, 'it''s ) WHERE' AS y FROM "t"`;
    expect(formatSql(pg, 'postgres')).toBe(`SELECT "from (" AS "where", E'a\\\\'' FROM (' AS x, 'it''s ) WHERE' AS y\nFROM "t"`);
    expect(formatSql("SELECT [order], [a]]WHERE], N'x FROM y' FROM [sales].[order] OUTER APPLY (SELECT 1) AS [z]", 'mssql')).toBe(
      "SELECT [order], [a]]WHERE], N'x FROM y'\nFROM [sales].[order]\nOUTER APPLY (\n  SELECT 1\n) AS [z]",
    );
    expect(formatSql("SELECT `where`, 'it\\'s FROM' FROM `d`.`t` WHERE x IS DISTINCT FROM y", 'bigquery')).toBe("SELECT `where`, 'it\\'s FROM'\nFROM `d`.`t`\nWHERE x IS DISTINCT FROM y");
  });

  it('keeps comment lines and empty lines, and lays out each other line', () => {
    const text = `-- a 'quote "and (\nSELECT 1 FROM t;\n\n-- params: ["it's"]\nUPDATE [t] SET [a] = 1 OUTPUT INSERTED.[a] WHERE [b] = 2\n`;
    expect(formatSql(text, 'mssql')).toBe(`-- a 'quote "and (\nSELECT 1\nFROM t;\n\n-- params: ["it's"]\nUPDATE [t]\nSET [a] = 1\nOUTPUT INSERTED.[a]\nWHERE [b] = 2\n`);
  });
});
