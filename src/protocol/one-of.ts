import type { z } from 'zod/mini'
// Named imports, not the `z` namespace: the widget's chunks bundle this module, and take from the
// core's zod exactly these functions (a namespace would keep all of zod in the core).
import { number, string } from 'zod/mini'

/**
 * Exactly one of `values`, as a check on a string or number schema: what zod's `literal` and
 * `enum` do, for schemas the widget's chunks read. The core's zod has no literal or enum kind, and
 * a chunk using one would put it there (they were 1 KB of it); a check is no kind of its own.
 */
/* @__NO_SIDE_EFFECTS__ */
export function oneOf<const T extends string | number>(...values: T[]): z.ZodMiniType<T> {
  const base: z.ZodMiniType = typeof values[0] === 'number' ? number() : string()
  return base.check((ctx) => {
    if (!(values as unknown[]).includes(ctx.value)) ctx.issues.push({ code: 'invalid_value', values, input: ctx.value })
  }) as unknown as z.ZodMiniType<T>
}
