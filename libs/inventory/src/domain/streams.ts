/** The host stream: everything its agent reported (the consistency boundary of a report). */
export const hostStream = (hostname: string): string => `host-${hostname}`;

/** The device stream: facts a device guards that operators, binds and finished jobs cause (maintenance, claims, health, programming, VFs). */
export const deviceStream = (deviceUuid: string): string => `device-${deviceUuid}`;
