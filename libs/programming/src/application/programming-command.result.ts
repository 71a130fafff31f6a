/** What a command appended: nothing (0, position null) or its events. */
export interface ProgrammingCommandResult {
  readonly appended: number;
  /** Global position of the last appended event; null when nothing was appended. */
  readonly position: number | null;
}
