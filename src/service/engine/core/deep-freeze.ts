/**
 * Freezes a value and everything it holds: what one request's work caches for the next (a parsed
 * published version, a bubble built once) is shared, and a write to it would reach every later
 * request; frozen, such a write throws where it happens instead.
 */
export function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value]
  while (stack.length > 0) {
    const item = stack.pop()
    if (typeof item !== 'object' || item === null || Object.isFrozen(item)) continue
    Object.freeze(item)
    for (const child of Object.values(item)) stack.push(child)
  }
  return value
}
