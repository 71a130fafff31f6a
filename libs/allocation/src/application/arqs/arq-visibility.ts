/** Which requests a caller may see: one project's, or (admins) all. */
export type ArqVisibility = { readonly project: string } | 'all-projects';

/** Who calls a write of the v2 API, as its route knows them: what they may see, and whether they hold the service role (Nova's). */
export interface ArqCaller {
  readonly visibility: ArqVisibility;
  /** Nova sends the service role in X-Service-Token. */
  readonly isService: boolean;
}
