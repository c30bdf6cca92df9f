// Named zod imports, not the `z` namespace: a widget chunk importing this module then takes from
// the core's zod only what it uses (build/lazy-chunks.ts), not all of it.
import { looseObject } from 'zod/mini'
import { num, str } from './common'
import { progressBarShape } from './theme-layout'

export const PROGRESS_BAR_PLACEMENTS = ['Top', 'Bottom'] as const
export const PROGRESS_BAR_POSITIONS = ['fixed', 'absolute'] as const

/** A theme's progress bar: whether it shows (theme-layout.ts), and where and how. */
export const progressBarSchema = looseObject({
  ...progressBarShape,
  color: str(),
  backgroundColor: str(),
  placement: str(),
  thickness: num(),
  position: str(),
})
