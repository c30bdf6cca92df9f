import type { PublishedFlow } from '../../protocol/index'
import { allowedOriginsOf } from '../http/cors'

/** What the share page reads from a published flow, every field already type-checked. */
export interface ShareSettings {
  isEnabled: boolean
  /** Query parameters leave the address bar once read, only when the flow sets it to true. */
  isHideQueryParamsEnabled: boolean
  /** The flow's name (the published snapshot has none: it is the flow's own), trimmed; may be empty. */
  flowName: string
  metadata: {
    /** The language the flow is written in (a BCP 47 tag): the share page's, unchecked here. */
    lang?: string
    title?: string
    description?: string
    imageUrl?: string
    favIconUrl?: string
    customHeadCode?: string
    tagManagerId?: string
  }
  allowedOrigins: string[]
}

type Loose = Record<string, unknown> | null | undefined

/** A non-blank string, trimmed; anything else (null from real exports, numbers, blanks) is absent. */
function text(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  const trimmed = value.trim()
  return trimmed === '' ? undefined : trimmed
}

/**
 * Reads the snapshot defensively: it was validated when imported, but older rows or flows written
 * by another tool may carry nulls or odd types, and a share page must never crash on them.
 */
export function readShareSettings(snapshot: PublishedFlow, flowName: unknown): ShareSettings {
  const settings = snapshot.settings as Loose
  const general = settings?.general as Loose
  const metadata = settings?.metadata as Loose
  const publicShare = settings?.publicShare as Loose
  return {
    isEnabled: publicShare?.isEnabled === true,
    isHideQueryParamsEnabled: general?.isHideQueryParamsEnabled === true,
    flowName: text(flowName) ?? '',
    metadata: {
      lang: text(metadata?.lang),
      title: text(metadata?.title),
      description: text(metadata?.description),
      imageUrl: text(metadata?.imageUrl),
      favIconUrl: text(metadata?.favIconUrl),
      customHeadCode: text(metadata?.customHeadCode),
      tagManagerId: text(metadata?.tagManagerId),
    },
    allowedOrigins: allowedOriginsOf(settings),
  }
}
