import { z } from 'zod/mini'

/**
 * Building blocks shared by every schema.
 *
 * Real flow exports carry `null` where a field is unset, and the spec lists only the values that
 * occur for enumerations, so optional fields accept `null` and enumerated fields accept any string
 * (the known values are exported as constants for code that branches on them). Objects are loose:
 * extra fields pass through untouched, because a later schema version may add them.
 */
// The helpers are marked free of side effects (as zod marks its own), so a bundle drops the
// schemas it does not use: the widget's core ships only those it parses.
/* @__NO_SIDE_EFFECTS__ */
export const opt = <T extends z.ZodMiniType>(schema: T) => z.nullish(schema)

/* @__NO_SIDE_EFFECTS__ */
export const str = () => opt(z.string())
/* @__NO_SIDE_EFFECTS__ */
export const num = () => opt(z.number())
/* @__NO_SIDE_EFFECTS__ */
export const bool = () => opt(z.boolean())

/**
 * A number that flow builders sometimes export as a string ("1" for one second): always a finite
 * number once parsed. One check function reads both forms and writes the converted value (as
 * zod's own `overwrite` does): a union, a pipe and a transform would be three schema kinds the
 * widget's core would otherwise carry for this alone.
 */
/* @__NO_SIDE_EFFECTS__ */
export const numeric = () =>
  opt(
    z.unknown().check((ctx) => {
      const { value } = ctx
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
      if (typeof n === 'number' && Number.isFinite(n)) ctx.value = n
      else ctx.issues.push({ code: 'custom', message: 'Expected a number', input: value })
    }) as unknown as z.ZodMiniType<number, number | string>,
  )

/**
 * The first of `schemas` that accepts the value, with that schema's output. This is what zod's
 * `union` does; `union` is a schema kind of its own (0.35 KB of the widget's core script), and
 * the widget's few unions are all this simple.
 */
/* @__NO_SIDE_EFFECTS__ */
export const anyOf = <const T extends readonly z.ZodMiniType[]>(...schemas: T) =>
  z.unknown().check((ctx) => {
    for (const schema of schemas) {
      const result = schema.safeParse(ctx.value)
      if (result.success) {
        ctx.value = result.data
        return
      }
    }
    ctx.issues.push({ code: 'custom', message: 'Expected one of the allowed shapes', input: ctx.value })
  }) as unknown as z.ZodMiniType<z.output<T[number]>, z.input<T[number]>>

export const point = z.looseObject({ x: z.number(), y: z.number() })

/** Values a prefilled or stored variable may hold. */
export const variableValue = z.nullable(anyOf(z.string(), z.number(), z.boolean(), z.array(z.string())))
export type VariableValue = z.infer<typeof variableValue>
