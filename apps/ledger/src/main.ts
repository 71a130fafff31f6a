import 'reflect-metadata';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import { loadOrCreateCredentials } from '@ledger/auth';
import { ConfigError, dataFiles, loadLedgerConfig } from '@ledger/config';
import { createLedgerApp } from './create-ledger-app';
import { describeListenAddress } from './http/listen-address';

async function main(): Promise<void> {
  const config = loadLedgerConfig();
  const logger = new Logger('Ledger');
  mkdirSync(config.dataDir, { recursive: true });
  const credentials = loadOrCreateCredentials(dataFiles(config), config.authSecret);
  const app = await createLedgerApp(config, credentials.codec);
  await app.listen({ port: config.port, host: config.host });
  const { bound, url } = describeListenAddress(app.getHttpServer().address() as AddressInfo);
  logger.log(`listening on ${bound} — roles ${config.roles.join(', ')}; events: ${config.store}, read models: ${config.readModels}; data: ${config.dataDir}`);
  logger.log(`admin credential: ${credentials.adminTokenFile} — e.g. curl -H "X-Auth-Token: $(cat ${credentials.adminTokenFile})" ${url}/api/v1/hosts`);
  if (config.roles.includes('api')) {
    logger.log(`API docs: ${url}/docs — OpenAPI documents: ${url}/api/v1/openapi.json (native), ${url}/v2/openapi.json (Cyborg v2)`);
    logger.log(`console: ${url}/console — sign in with the admin credential above`);
  }
}

main().catch((error) => {
  if (error instanceof ConfigError) {
    // A setting read at start (LEDGER_*, or the policy file LEDGER_POLICY_FILE names) is invalid.
    process.stderr.write(`ledger: invalid configuration: ${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`ledger: failed to start: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
