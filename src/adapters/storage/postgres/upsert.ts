/** `INSERT … ON CONFLICT (key) DO UPDATE SET every other column`: a record replaced whole by its key. */
export function upsertSql(table: string, columns: readonly string[], key: readonly string[]): string {
  const set = columns.filter((c) => !key.includes(c)).map((c) => `${c} = excluded.${c}`);
  return `INSERT INTO engram.${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})
    ON CONFLICT (${key.join(', ')}) DO UPDATE SET ${set.join(', ')}`;
}
