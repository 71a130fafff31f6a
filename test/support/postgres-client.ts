import { Client } from 'pg';

/** One connection to `url` for `work` (creating or dropping a test's database), closed whatever happens. */
export async function withPostgresClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
