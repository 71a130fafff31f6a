import type { Command } from 'commander';

/**
 * One file of commands. ledgerctl loads only the file of the command being
 * run (a token issue must not load Nest, the event store drivers and the
 * projections that audit replay needs); for the others it lists the
 * commands in --help from here. command-catalog.spec.ts checks that these
 * lines are what the files register.
 */
export interface CommandFile {
  /** The file's top-level commands as `ledgerctl --help` lists them: the usage term and the description. */
  readonly commands: ReadonlyArray<readonly [term: string, description: string]>;
  /** Loads the file and registers its commands on the program. */
  register(program: Command): Promise<void>;
}

const AUDIT = "auditors' tools: verify, export and replay the event log, who held a device, usage, health beside tenancy, what-if quota, print the checkpoint key, accept a rollback";

/** Every command file, in the order of `ledgerctl --help`. */
export const COMMAND_FILES: readonly CommandFile[] = [
  {
    commands: [['audit', AUDIT]],
    async register(program) {
      const [verify, exportLog, replay, whoHeld, whatIf, publicKey, usage, healthHolders, acceptRollback] = await Promise.all([
        import('./commands/audit-verify.command'),
        import('./commands/audit-export.command'),
        import('./commands/audit-replay.command'),
        import('./commands/audit-who-held.command'),
        import('./commands/audit-what-if.command'),
        import('./commands/audit-public-key.command'),
        import('./commands/audit-usage.command'),
        import('./commands/audit-health-holders.command'),
        import('./commands/audit-accept-rollback.command'),
      ]);
      const audit = program.command('audit').description(AUDIT);
      verify.registerAuditVerify(audit);
      exportLog.registerAuditExport(audit);
      replay.registerAuditReplay(audit);
      whoHeld.registerAuditWhoHeld(audit);
      whatIf.registerAuditWhatIf(audit);
      publicKey.registerAuditPublicKey(audit);
      usage.registerAuditUsage(audit);
      healthHolders.registerAuditHealthHolders(audit);
      acceptRollback.registerAuditAcceptRollback(audit);
    },
  },
  {
    commands: [['backup [options]', 'copy the ledger while it runs: events, read models (SQLite files or a pg_dump), signed checkpoints, credentials']],
    async register(program) {
      (await import('./commands/backup.command')).registerBackup(program);
    },
  },
  {
    commands: [
      ['token', 'issue signed tokens'],
      ['agent-credential <hostname>', 'print the credential an agent uses to report its host (role agent, scoped to the host)'],
    ],
    async register(program) {
      (await import('./commands/token-issue.command')).registerTokenCommands(program);
    },
  },
  {
    commands: [['quota', "per-project limits on accelerators and device capacity (a running ledger's API)"]],
    async register(program) {
      (await import('./commands/quota.command')).registerQuotaCommands(program);
    },
  },
  // Cyborg's generic-driver spec: each a read or a job through the running ledger's API, one file each.
  {
    commands: [
      ['install-driver [options] <host> <driver>', "install a driver's host software on a host (its agent runs the driver's install playbook)"],
      ['uninstall-driver [options] <host> <driver>', "remove a driver's host software from a host (its uninstall playbook)"],
      ['update-driver [options] <host> <driver>', "move a driver's host software on a host to another version (the install playbook, with that version)"],
    ],
    async register(program) {
      (await import('./commands/driver-jobs.command')).registerDriverJobCommands(program);
    },
  },
  {
    commands: [['driver-list [options] <host>', "the drivers a host's driver jobs installed, with their versions, installs that failed, and driver jobs still pending"]],
    async register(program) {
      (await import('./commands/driver-list.command')).registerDriverList(program);
    },
  },
  {
    commands: [['service-list [options]', "the hosts' agents: up, lost or unknown, when last seen, how many devices they report"]],
    async register(program) {
      (await import('./commands/service-list.command')).registerServiceList(program);
    },
  },
  {
    commands: [
      ['discover-services [options] [hosts...]', 'have agents discover their accelerators again and report (all hosts when none is named; hosts without a live agent are skipped)'],
    ],
    async register(program) {
      (await import('./commands/discover-services.command')).registerDiscoverServices(program);
    },
  },
  {
    commands: [
      ['attach-instance [options] <device> <instance-uuid>', 'pass a device (or one of its VFs) through to an instance: bind it to vfio-pci on its host'],
      ['detach-instance [options] <device> <instance-uuid>', 'take a device (or VF) back from an instance: return it to its host driver'],
    ],
    async register(program) {
      (await import('./commands/instance-attach.command')).registerInstanceCommands(program);
    },
  },
  {
    commands: [['reactor', "reactors that act outside the ledger: status, parked events, retry (a running ledger's API)"]],
    async register(program) {
      (await import('./commands/reactor.command')).registerReactorCommands(program);
    },
  },
  {
    commands: [['workflow', "durable workflows (bind, provisioning): list, show a step history, cancel, retry (a running ledger's API)"]],
    async register(program) {
      (await import('./commands/workflow.command')).registerWorkflowCommands(program);
    },
  },
  {
    commands: [['device', "devices: list and show them with their maintenance, health and clean state; retry or release a failed clean; clear an unhealthy one once repaired (a running ledger's API)"]],
    async register(program) {
      (await import('./commands/device.command')).registerDeviceCommands(program);
    },
  },
  {
    commands: [['host', "hosts: show one, bring one into service (the provision workflow), fence or unfence one (a running ledger's API)"]],
    async register(program) {
      (await import('./commands/host-provision.command')).registerHostCommands(program);
    },
  },
  {
    commands: [['bitstream', "FPGA images: register with a detached signature, list, show, retire; trust signing keys (a running ledger's API)"]],
    async register(program) {
      (await import('./commands/bitstream.command')).registerBitstreamCommands(program);
    },
  },
  {
    commands: [['policy', "the v2 API's policy rules: Cyborg's defaults and the overrides of LEDGER_POLICY_FILE"]],
    async register(program) {
      (await import('./commands/policy.command')).registerPolicyCommands(program);
    },
  },
  {
    commands: [['placement', "the sync with OpenStack Placement (a running ledger's API)"]],
    async register(program) {
      (await import('./commands/placement-status.command')).registerPlacementCommands(program);
    },
  },
];

/** A usage term's command name: `driver-list [options] <host>` → `driver-list`. */
export const commandName = (term: string): string => term.split(' ', 1)[0];
