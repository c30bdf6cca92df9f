/** Resolves once `condition` holds, looking every 10 ms (the test's own timeout bounds the wait). */
export async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 10))
}
