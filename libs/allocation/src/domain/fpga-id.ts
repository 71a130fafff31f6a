/** Function and interface ids compare as the agent reads them back: hex digits, no dashes, lower case. */
export const normalizeHexId = (id: string): string => id.replace(/-/g, '').toLowerCase();
