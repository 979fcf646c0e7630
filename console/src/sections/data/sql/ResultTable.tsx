/** `run_sql`'s rows: the first is the header. NULL is shown as such, apart from the text "NULL". */
export function ResultTable({ rows }: { rows: (string | null)[][] }) {
  const [header, ...body] = rows;
  return (
    <table aria-label="Result">
      <thead>
        <tr>
          {header?.map((h, i) => (
            <th key={i}>{h}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {body.map((row, r) => (
          <tr key={r}>
            {row.map((v, i) => (
              <td key={i}>{v === null ? <em className="null">NULL</em> : v}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
