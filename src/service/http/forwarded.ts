/**
 * Proxies append to `X-Forwarded-For` (and often set `X-Forwarded-Proto`/`-Host`), so only the
 * entries on the right were written by proxies the operator runs; anything to their left came
 * from the client and is never believed. With `hops` trusted proxies, the entry `hops` places from
 * the right is what the outermost of them saw. A header with fewer entries (a proxy that sets
 * rather than appends, or a hop that was skipped) yields its leftmost entry.
 */
export function trustedForwardedValue(header: string | undefined, hops: number): string | undefined {
  if (hops <= 0 || header === undefined) return undefined
  const entries = header.split(',').map((entry) => entry.trim())
  const value = entries[Math.max(0, entries.length - hops)]
  return value === '' ? undefined : value
}
