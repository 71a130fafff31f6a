import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { eventually } from '@ledger/processing/testing';
import type { AgentProcess } from './agent-process';
import { startTestLedger, type TestLedger } from './ledger-app';
import { startAgentOnLedger } from './simulated-agent';

/** A deployable of the MIG resource class as REST lists it: a room to carve (`…_1g.10gb_carvable`) or a carved partition. */
export interface MigDeployable {
  readonly uuid: string;
  readonly name: string;
  readonly rpUuid: string;
  readonly count: number;
  readonly deviceUuid: string;
  readonly attachHandles: readonly { readonly uuid: string; readonly kind: string; readonly claimedBy: string | null; readonly partition: string | null }[];
}

export interface MigHosts {
  readonly ledger: TestLedger;
  readonly store: EventStore;
  /** The host's `CUSTOM_MIG_1G_10GB` deployables: its rooms and its carved partitions. */
  migDeployables(hostname: string): Promise<MigDeployable[]>;
  /** The host's room to carve a 1g.10gb slice. */
  room(hostname: string): Promise<MigDeployable>;
  close(): Promise<void>;
}

/**
 * A test ledger (with `env`) and one simulated agent per host, each with
 * one A100-like GPU in MIG mode plus what `hosts` adds to its simulated
 * settings (failure injection), ready once every host offers room to carve;
 * and a device profile `profile` asking for one `CUSTOM_MIG_1G_10GB`.
 */
export async function startMigHosts(env: Record<string, string>, hosts: Record<string, Record<string, unknown>>, profile: string): Promise<MigHosts> {
  const ledger = await startTestLedger({ LEDGER_BIND_TIMEOUT_MS: '60000', ...env });
  const store = ledger.app.get<EventStore>(EVENT_STORE);
  const stateDir = mkdtempSync(join(tmpdir(), 'mig-hosts-'));
  const agents: AgentProcess[] = [];
  const admin = (method: string, path: string, body?: unknown) => ledger.request(method, path, { token: ledger.adminToken, body });
  const migDeployables = async (hostname: string): Promise<MigDeployable[]> => (await admin('GET', `/api/v1/deployables?hostname=${hostname}&resourceClass=CUSTOM_MIG_1G_10GB`)).body.items;
  const room = async (hostname: string): Promise<MigDeployable> => (await migDeployables(hostname)).find((deployable) => deployable.name.endsWith('_1g.10gb_carvable'))!;
  const close = async () => {
    await Promise.all(agents.map((agent) => agent.stop('SIGKILL')));
    await ledger.close();
    rmSync(stateDir, { recursive: true, force: true });
  };
  try {
    for (const [hostname, settings] of Object.entries(hosts)) {
      agents.push(await startAgentOnLedger(ledger, { hostname, dir: stateDir, simulated: { fpgas: 0, gpus: 1, nics: 0, gpuMig: true, ...settings } }));
    }
    await eventually(async () => (await Promise.all(Object.keys(hosts).map(room))).every((offered) => offered !== undefined));
    const created = await admin('POST', '/v2/device_profiles', [{ name: profile, groups: [{ 'resources:CUSTOM_MIG_1G_10GB': '1' }] }]);
    if (created.status !== 201) throw new Error(`the MIG profile was refused: ${created.status} ${JSON.stringify(created.body)}`);
  } catch (error) {
    await close();
    throw error;
  }
  return { ledger, store, migDeployables, room, close };
}
