/** SQL Server connection strings (ODBC and ADO.NET forms) as the driver's settings. */
import { describe, expect, it } from 'vitest';
import { connectionStringPairs, connectionTarget } from '../../src/backends/mssql/configuration.js';
import { bracket } from '../../src/backends/mssql/dialect.js';

describe('connection strings', () => {
  it('reads the ODBC form the well-known engine documents', () => {
    expect(connectionTarget('Driver={ODBC Driver 18 for SQL Server};Server=tcp:db.example,1444;Database=shop;Uid=sa;Pwd={p;a}}ss};Encrypt=optional')).toEqual({
      server: 'db.example',
      port: 1444,
      instance: null,
      database: 'shop',
      user: 'sa',
      password: 'p;a}ss',
      encrypt: false,
      trustServerCertificate: false,
      connectTimeoutMs: 15000,
    });
  });

  it('reads the ADO.NET form, named instances and defaults', () => {
    expect(connectionTarget('Data Source=host\\SQLEXPRESS; Initial Catalog=db; User ID=u; Password=p; TrustServerCertificate=True; Connect Timeout=3')).toMatchObject({
      server: 'host',
      port: 1433,
      instance: 'SQLEXPRESS',
      database: 'db',
      user: 'u',
      password: 'p',
      encrypt: true,
      trustServerCertificate: true,
      connectTimeoutMs: 3000,
    });
  });

  it('keys are case-insensitive; a trailing semicolon is fine', () => {
    expect([...connectionStringPairs('SERVER=a;uid=b;')]).toEqual([
      ['server', 'a'],
      ['uid', 'b'],
    ]);
  });

  it('names what is wrong', () => {
    expect(() => connectionTarget('Database=x')).toThrow('the connection string has no Server');
    expect(() => connectionTarget('Server=a;junk')).toThrow('expected key=value');
    expect(() => connectionTarget('Server=a,port')).toThrow('cannot read the server');
  });
});

describe('identifiers', () => {
  it('are bracket-quoted with ] doubled', () => {
    expect(bracket('a]b[c').parts).toEqual(['[a]]b[c]']);
  });
});
