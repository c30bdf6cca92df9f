import type { Sanitizer } from './purify'

export type { Sanitizer }

let loading: Promise<Sanitizer> | undefined

/**
 * DOMPurify is loaded on first use only, from its chunk beside the script: most messages carry
 * richText and never need it. A failed load is not cached, so a later message can try again.
 */
export function loadSanitizer(): Promise<Sanitizer> {
  loading ??= import('./purify').then(
    (module) => module.createSanitizer(),
    (error: unknown) => {
      loading = undefined
      throw error
    },
  )
  return loading
}
