// Named zod imports, not the `z` namespace: a widget chunk importing this module then takes from
// the core's zod only what it uses (build/lazy-chunks.ts), not all of it.
import { looseObject } from 'zod/mini'
import { str } from './common'

/** A flow's page metadata (the share page's title and cards; a launcher's name). */
export const metadataSchema = looseObject({
  title: str(),
  description: str(),
  imageUrl: str(),
  favIconUrl: str(),
  customHeadCode: str(),
  tagManagerId: str(),
})
