/** A setting is missing or invalid: the process must stop and say which and why. */
export class ConfigError extends Error {
  constructor(readonly setting: string, problem: string) {
    super(`${setting}: ${problem}`);
    this.name = 'ConfigError';
  }
}
