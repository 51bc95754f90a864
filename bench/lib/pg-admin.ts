import pg from "pg";

/** Runs one statement on the `postgres` database of a PostgreSQL server (a bench's scratch database made or dropped). */
export async function pgAdmin(server: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: `${server}/postgres` });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
