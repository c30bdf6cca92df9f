import type { z } from 'zod/mini'
// Named zod imports in a module of its own (see any-of.ts): only a chunk of the widget reads variables.
import { array, boolean, nullable, number, string } from 'zod/mini'
import { anyOf } from './any-of'

/** Values a prefilled or stored variable may hold. */
export const variableValue = nullable(anyOf(string(), number(), boolean(), array(string())))
export type VariableValue = z.infer<typeof variableValue>
