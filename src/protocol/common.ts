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
 * A number that flow builders sometimes export as a string ("1" for one second): always a number
 * once parsed. The string is converted by a check function (it writes the payload's value, as
 * zod's own `overwrite` does) rather than a pipe and a transform, two schema kinds the widget's
 * core would otherwise carry for this alone.
 */
/* @__NO_SIDE_EFFECTS__ */
export const numeric = () =>
  opt(
    z.union([z.number(), z.string()]).check((ctx) => {
      if (typeof ctx.value !== 'string') return
      const trimmed = ctx.value.trim()
      const n = Number(trimmed)
      if (trimmed === '' || !Number.isFinite(n)) ctx.issues.push({ code: 'custom', message: 'Expected a number', input: ctx.value })
      else ctx.value = n
    }) as unknown as z.ZodMiniType<number, number | string>,
  )

export const point = z.looseObject({ x: z.number(), y: z.number() })

/** Values a prefilled or stored variable may hold. */
export const variableValue = z.nullable(z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]))
export type VariableValue = z.infer<typeof variableValue>
