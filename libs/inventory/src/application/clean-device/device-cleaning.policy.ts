/**
 * Whether a device's released attach handles are cleaned before they are
 * offered again: by its type, as LEDGER_CLEAN_DEVICE_TYPES says. A type not
 * cleaned is offered again at the release, as before cleaning existed.
 */
export interface DeviceCleaningPolicy {
  cleansAfterRelease(deviceUuid: string): Promise<boolean>;
}
