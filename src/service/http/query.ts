import type { Context } from 'hono'
import { HttpError } from './errors'

/** A boolean query flag: absent → `fallback`; `true`/`false` (also `1`/`0`); anything else → 400. */
export function booleanQuery(c: Context, name: string, fallback = false): boolean {
  const values = c.req.queries(name)
  if (values === undefined || values.length === 0) return fallback
  const value = values.length === 1 ? values[0]!.toLowerCase() : undefined
  if (value === 'true' || value === '1') return true
  if (value === 'false' || value === '0') return false
  throw new HttpError('invalid_query', `Query parameter ${name} must be given once, as true or false.`, [
    { path: name, message: `Expected true or false, got ${JSON.stringify(values.join(','))}` },
  ])
}

/** A whole-number query parameter from `min` to `max`: absent → `fallback`; anything else → 400. */
export function integerQuery(c: Context, name: string, fallback: number, min: number, max: number): number {
  const raw = c.req.query(name)
  if (raw === undefined) return fallback
  const value = /^\d{1,6}$/.test(raw) ? Number(raw) : Number.NaN
  if (!(value >= min && value <= max)) {
    throw new HttpError('invalid_query', `Query parameter ${name} must be a whole number from ${min} to ${max}.`, [
      { path: name, message: `Got ${JSON.stringify(raw)}` },
    ])
  }
  return value
}
