/** What a quota command did: nothing (appended 0, position null) or the events it appended. */
export interface QuotaCommandResult {
  readonly appended: number;
  /** Global position of the last appended event; null when nothing was appended. */
  readonly position: number | null;
}

export function toQuotaCommandResult(result: { readonly appended: number; readonly position: number | undefined }): QuotaCommandResult {
  return { appended: result.appended, position: result.position ?? null };
}
