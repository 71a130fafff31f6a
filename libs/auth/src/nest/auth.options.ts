import type { TokenCodec } from '../tokens/token-codec';

export const AUTH_OPTIONS = Symbol('AUTH_OPTIONS');

export interface AuthOptions {
  readonly codec: TokenCodec;
  /** Accept requests without a token as an admin. Development only; logged loudly at start-up. */
  readonly devNoAuth: boolean;
}
