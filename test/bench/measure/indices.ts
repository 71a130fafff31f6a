/** `0 … count-1`, for running indexed work through `forEachConcurrently`. */
export const indices = (count: number): number[] => Array.from({ length: count }, (_, index) => index);
