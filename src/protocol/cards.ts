import type { z } from 'zod/mini'
// Named zod imports, not the `z` namespace: the widget's cards chunk imports this module, and takes
// from the core's zod only what it uses (build/lazy-chunks.ts).
import { array, looseObject, string } from 'zod/mini'
import { opt, str } from './common'

/**
 * A card of a `cards` input, as the service sends it in `input.items`: a picture, a title, a text
 * and its buttons (`paths`). A button's `id` is the answer (`{type: "text", text: id}`), its `text`
 * what the visitor reads and what their bubble shows; the flow branches per button.
 */
export const cardPathSchema = looseObject({ id: string(), text: str() })
export const cardSchema = looseObject({
  id: string(),
  imageUrl: str(),
  title: str(),
  description: str(),
  paths: opt(array(cardPathSchema)),
})
export type Card = z.infer<typeof cardSchema>
export const cardsSchema = array(cardSchema)
