// Named zod imports, not the `z` namespace: a widget chunk importing this module then takes from
// the core's zod only what it uses (build/lazy-chunks.ts), not all of it.
import { looseObject, string } from 'zod/mini'
import { anyOf, str } from './common'

/** A theme's font: a Google Fonts family name, or `{ type, family, url }`. */
export const fontSchema = anyOf(string(), looseObject({ type: str(), family: str(), url: str() }))
