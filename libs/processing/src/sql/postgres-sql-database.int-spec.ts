import { describeWithService, postgresUnavailable } from '../../../../test/support/services';
import { sqlDatabaseContract } from '../testing/sql-database.contract';
import { postgresTestDatabases } from '../testing/test-databases';

describeWithService('PostgreSQL', postgresUnavailable())('PostgreSQL SqlDatabase', () => {
  let count = 0;
  sqlDatabaseContract(() => {
    const databases = postgresTestDatabases();
    return { open: () => databases.open(`contract_${++count}`), dispose: () => databases.dispose() };
  });

  describe('schema option', () => {
    const databases = postgresTestDatabases();
    afterAll(() => databases.dispose());

    it('keeps tables of different schemas apart', async () => {
      const left = await databases.open('left');
      const right = await databases.open('right');
      await left.run('CREATE TABLE t (a INTEGER)');
      await right.run('CREATE TABLE t (a INTEGER)');
      await left.run('INSERT INTO t (a) VALUES ($1)', [1]);
      expect(await right.all('SELECT a FROM t')).toEqual([]);
    });
  });
});
