import { ConfigError } from './config-error';

/** The environment as settings are read from it. */
export type Env = Readonly<Record<string, string | undefined>>;

/** A setting's value, trimmed; empty counts as unset. */
export const nonEmpty = (value: string | undefined): string | undefined => (value === undefined || value.trim() === '' ? undefined : value.trim());

/** An integer setting within [min, max]; anything else stops start-up naming the variable. */
export function integerSetting(env: Env, name: string, fallback: number, min: number, max: number): number {
  const value = nonEmpty(env[name]);
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new ConfigError(name, `"${value}" is not an integer between ${min} and ${max}`);
  }
  return Number(value);
}

/** An http(s) URL setting, without trailing slashes; anything else stops start-up naming the variable. */
export function urlSetting(env: Env, name: string): string | undefined {
  const value = nonEmpty(env[name]);
  if (value === undefined) return undefined;
  if (!/^https?:\/\/[^\s/]+/.test(value)) throw new ConfigError(name, `"${value}" is not an http(s) URL`);
  return value.replace(/\/+$/, '');
}

/** A boolean setting: true/false, 1/0, yes/no, on/off. */
export function booleanSetting(env: Env, name: string, fallback: boolean): boolean {
  const value = nonEmpty(env[name])?.toLowerCase();
  if (value === undefined) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off'].includes(value)) return false;
  throw new ConfigError(name, `"${value}" is not a boolean (true or false)`);
}
