/** Calls `work(0 … count-1)` with at most `concurrency` calls in flight. */
export async function forEachConcurrently(count: number, concurrency: number, work: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}
