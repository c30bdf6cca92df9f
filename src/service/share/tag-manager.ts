/**
 * Google Tag Manager on a share page. Only a well-formed container id is used: the id ends up in
 * a script URL, and a loose value could point that script elsewhere.
 */

const CONTAINER_ID = /^GTM-[A-Z0-9]{4,12}$/

export const TAG_MANAGER_ORIGIN = 'https://www.googletagmanager.com'

/** The container id in canonical (upper) case, or undefined when it is not one. */
export function tagManagerId(value: string | undefined): string | undefined {
  const id = value?.toUpperCase()
  return id !== undefined && CONTAINER_ID.test(id) ? id : undefined
}

export function tagManagerScriptUrl(id: string): string {
  return `${TAG_MANAGER_ORIGIN}/gtm.js?id=${encodeURIComponent(id)}`
}
