/**
 * A fresh key for one user answer; every retry of that answer reuses it so the service can tell a
 * repeat from a new message. `randomUUID` exists only in secure contexts; `getRandomValues`
 * everywhere the widget runs.
 */
export function newIdempotencyKey(): string {
  const { crypto } = globalThis
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('')
}
