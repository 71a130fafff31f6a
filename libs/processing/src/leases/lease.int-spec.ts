import { describeWithService, postgresUnavailable } from '../../../../test/support/services';
import { leaseContract } from '../testing/lease.contract';
import { postgresTestDatabases, sqliteTestDatabases } from '../testing/test-databases';

describe('leases on SQLite', () => {
  leaseContract(sqliteTestDatabases);
});

describeWithService('PostgreSQL', postgresUnavailable())('leases on PostgreSQL', () => {
  leaseContract(postgresTestDatabases);
});
