/**
 * Waits for a condition the code under test reaches on its own (a state
 * change with no event to await), checking it every few milliseconds. The
 * generous timeout is a safety net, not an expectation: PostgreSQL readers
 * wait for every older transaction on the server, and test workers share it.
 */
export async function eventually(condition: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms: ${condition.toString()}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
