import type { z } from 'zod/mini'
// Named zod imports, not the `z` namespace, and a module of its own, not common.ts (a module of
// the widget's core): only the widget's chunks parse with `anyOf` (saved conversations, fonts,
// script arguments), and each takes it with the one zod function it needs (build/lazy-chunks.ts).
import { unknown } from 'zod/mini'

/**
 * The first of `schemas` that accepts the value, with that schema's output. This is what zod's
 * `union` does; `union` is a schema kind of its own (0.35 KB of the widget's core script), and
 * the widget's few unions are all this simple.
 */
/* @__NO_SIDE_EFFECTS__ */
export const anyOf = <const T extends readonly z.ZodMiniType[]>(...schemas: T) =>
  unknown().check((ctx) => {
    for (const schema of schemas) {
      const result = schema.safeParse(ctx.value)
      if (result.success) {
        ctx.value = result.data
        return
      }
    }
    ctx.issues.push({ code: 'custom', message: 'Expected one of the allowed shapes', input: ctx.value })
  }) as unknown as z.ZodMiniType<z.output<T[number]>, z.input<T[number]>>
