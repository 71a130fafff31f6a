/**
 * What `npm run agent -- --help` prints. The agent takes no arguments: it is
 * configured by environment, as a service unit sets it, and
 * apps/agent/README.md ("Settings") is the full list with defaults.
 */
export const AGENT_USAGE = `usage: npm run agent            (or node scripts/run.js agent)

One agent per host: discovers the host's accelerators, reports them to the
ledger, heartbeats, and runs the jobs the ledger asks of it. It takes no
arguments; it is configured by environment variables:

  AGENT_TOKEN          the host's credential (npm run ledgerctl -- agent-credential HOST); required,
  AGENT_TOKEN_FILE       unless a file holding it is named here
  AGENT_HOSTNAME       the host it speaks for (default: this machine's hostname)
  LEDGER_URL           the ledger, or its API replicas comma-separated (default: http://127.0.0.1:$PORT, PORT 8666)
  AGENT_DRIVERS        drivers to enable (simulated is opt-in)
  AGENT_STATE_DIR      unsent results, images, Ansible's files (default: $XDG_STATE_HOME/ledger-agent/<hostname>)

Every setting, with its default: apps/agent/README.md. SIGTERM or SIGINT stop it cleanly.
`;

/** Whether the arguments ask for the usage rather than a run. */
export const asksForUsage = (args: readonly string[]): boolean => args.some((arg) => arg === '--help' || arg === '-h');
