/** Sent with every heartbeat; kept with the package version (package.json). */
export const AGENT_VERSION = '0.1.0';
