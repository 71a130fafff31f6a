import { ConfigError } from '@ledger/config';

/** The setting every driver error names: the JSON file of per-driver settings (runtime config, AGENT_DRIVER_CONFIG). */
const SETTING = 'AGENT_DRIVER_CONFIG';

/**
 * Reads one driver's block of AGENT_DRIVER_CONFIG: typed getters with
 * defaults, and `done()` refusing members nobody read, so a misspelt
 * setting stops the agent at start-up instead of being ignored.
 */
export class DriverSettings {
  private readonly values: Readonly<Record<string, unknown>>;
  private readonly read = new Set<string>();

  constructor(
    raw: unknown,
    readonly path: string,
  ) {
    if (raw === undefined || raw === null) raw = {};
    if (typeof raw !== 'object' || Array.isArray(raw)) this.fail(path, 'must be an object of settings');
    this.values = raw as Record<string, unknown>;
  }

  string(key: string, fallback: string): string {
    return this.optionalString(key) ?? fallback;
  }

  optionalString(key: string): string | undefined {
    const value = this.take(key);
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value.trim() === '') this.fail(this.at(key), 'must be a non-empty string');
    return value;
  }

  number(key: string, fallback: number, min: number, max: number, integer = true): number {
    const value = this.take(key);
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
      this.fail(this.at(key), `must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}`);
    }
    return value;
  }

  boolean(key: string, fallback: boolean): boolean {
    const value = this.take(key);
    if (value === undefined) return fallback;
    if (typeof value !== 'boolean') this.fail(this.at(key), 'must be true or false');
    return value;
  }

  stringArray(key: string): string[] {
    const value = this.take(key);
    if (value === undefined) return [];
    if (!Array.isArray(value) || value.some((item) => typeof item !== 'string' || item.trim() === '')) {
      this.fail(this.at(key), 'must be an array of non-empty strings');
    }
    return value as string[];
  }

  stringMap(key: string): Record<string, string> {
    const value = this.take(key);
    if (value === undefined) return {};
    if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.values(value).some((item) => typeof item !== 'string' || item === '')) {
      this.fail(this.at(key), 'must be an object of non-empty strings');
    }
    return { ...(value as Record<string, string>) };
  }

  /** The raw value, for members with their own rules (lists of objects). */
  raw(key: string): unknown {
    return this.take(key);
  }

  /** Refuses every member no getter asked for. */
  done(): void {
    const unknown = Object.keys(this.values).filter((key) => !this.read.has(key));
    if (unknown.length > 0) this.fail(this.at(unknown[0]), `is not a setting of ${this.path} (known: ${[...this.read].sort().join(', ') || 'none'})`);
  }

  /** Stops start-up with the member's path and the rule it breaks. */
  fail(path: string, problem: string): never {
    throw new ConfigError(SETTING, `${path} ${problem}`);
  }

  at(key: string): string {
    return `${this.path}.${key}`;
  }

  private take(key: string): unknown {
    this.read.add(key);
    return this.values[key];
  }
}
