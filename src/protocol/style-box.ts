import type { z } from 'zod/mini'
// Named zod imports, not the `z` namespace: a widget chunk importing this module then takes from
// the core's zod only what it uses (build/lazy-chunks.ts), not all of it.
import { looseObject } from 'zod/mini'
import { num, opt, str } from './common'

/** A themed box (container, bubbles, buttons, inputs); read by the theme and by a launcher's button. */
export const borderSchema = looseObject({
  thickness: num(),
  color: str(),
  roundeness: str(),
  customRoundeness: num(),
  opacity: num(),
})

export const styleBoxShape = {
  backgroundColor: str(),
  color: str(),
  blur: num(),
  opacity: num(),
  shadow: str(),
  border: opt(borderSchema),
}
export const styleBoxSchema = looseObject(styleBoxShape)
export type StyleBox = z.infer<typeof styleBoxSchema>
