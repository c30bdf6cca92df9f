/**
 * The host page's address as flow scripts see it (`location` in the sandbox): a copy made when a
 * run starts, never the sandbox's own `blob:` address. Each part is at most PAGE_ADDRESS_MAX_CHARS
 * long (a longer one is given empty rather than cut into an address that was never the page's).
 */
export interface PageAddress {
  href: string
  origin: string
  pathname: string
  search: string
  hash: string
  /** The page's `document.referrer`. */
  referrer: string
}

export const PAGE_ADDRESS_KEYS = ['href', 'origin', 'pathname', 'search', 'hash', 'referrer'] as const
export const PAGE_ADDRESS_MAX_CHARS = 8_192

/** What a script sees when the site keeps its address to itself: every part empty. */
export const NO_PAGE_ADDRESS: PageAddress = { href: '', origin: '', pathname: '', search: '', hash: '', referrer: '' }

const part = (value: unknown) => (typeof value === 'string' && value.length <= PAGE_ADDRESS_MAX_CHARS ? value : '')

/** The address of the page `doc` is, now (an app's address changes as the visitor moves). */
export function readPageAddress(doc: Document): PageAddress {
  const at = doc.defaultView?.location
  return {
    href: part(at?.href),
    origin: part(at?.origin),
    pathname: part(at?.pathname),
    search: part(at?.search),
    hash: part(at?.hash),
    referrer: part(doc.referrer),
  }
}

/** A page address from a message, rebuilt from its strings; undefined when it is not one. */
export function parsePageAddress(data: unknown): PageAddress | undefined {
  if (typeof data !== 'object' || data === null) return undefined
  const fields = data as Record<string, unknown>
  const address = { ...NO_PAGE_ADDRESS }
  for (const key of PAGE_ADDRESS_KEYS) {
    const value = fields[key]
    if (typeof value !== 'string' || value.length > PAGE_ADDRESS_MAX_CHARS) return undefined
    address[key] = value
  }
  return address
}
