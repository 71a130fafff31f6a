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
