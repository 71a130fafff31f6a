/** One device profile as the read model serves it. */
export interface DeviceProfileView {
  readonly uuid: string;
  readonly name: string;
  readonly description: string | null;
  /** String keys (`resources:FPGA`) to string values (`"1"`), as stored. */
  readonly groups: Record<string, string>[];
  /** ISO-8601. */
  readonly createdAt: string;
  /** Always null: profiles are never updated, only deleted and created anew. */
  readonly updatedAt: string | null;
}
