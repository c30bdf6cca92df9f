/**
 * A fresh key for one user answer; every retry of that answer reuses it so the service can tell a
 * repeat from a new message: 128 random bits as hex, from `getRandomValues`, which (unlike
 * `randomUUID`, secure contexts only) exists everywhere the widget runs.
 */
export const newIdempotencyKey = (): string =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('')
