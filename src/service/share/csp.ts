import { normalizeOrigin } from '../http/cors'

type Directives = Record<string, string[]>

/**
 * The share page's policy: scripts and styles from this service only (the widget bundle and the
 * page script), no inline code, whatever the flow's settings (owner code runs in the head frame). Images, media, frames, fonts and font stylesheets may come
 * from any https origin because flows show CDN images, embed videos and load theme web fonts;
 * the chat API itself is same-origin.
 */
const BASE: Readonly<Directives> = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'https:', 'data:'],
  'media-src': ["'self'", 'https:'],
  'frame-src': ["'self'", 'https:'],
  'font-src': ["'self'", 'https:', 'data:'],
  'connect-src': ["'self'", 'https:'],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
}

export interface SharePagePolicyNeeds {
  /** Origins of page scripts not served by this service (a CDN-hosted widget bundle). */
  scriptOrigins?: readonly string[]
  /** `settings.security.allowedOrigins`: the sites that may frame the page; empty means any. */
  allowedOrigins: readonly string[]
}

/** An origin safe to write into a policy: scheme, host and port, nothing that could end a directive. */
const POLICY_ORIGIN = /^https?:\/\/(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/

function frameAncestors(allowedOrigins: readonly string[]): string[] | undefined {
  if (allowedOrigins.length === 0) return undefined
  const origins = allowedOrigins.map(normalizeOrigin).filter((origin) => POLICY_ORIGIN.test(origin))
  return ["'self'", ...origins]
}

/** True when `source` adds nothing: already listed, or an https host under a bare `https:`. */
const covered = (list: readonly string[], source: string) =>
  list.includes(source) || (source.startsWith('https://') && list.includes('https:'))

function add(directives: Directives, name: string, sources: readonly string[]): void {
  const list = (directives[name] ??= [])
  for (const source of sources) if (!covered(list, source)) list.push(source)
}

/** The share page's Content-Security-Policy: the baseline, the widget's origin, the framing sites. */
export function sharePagePolicy(needs: SharePagePolicyNeeds): string {
  const directives: Directives = Object.fromEntries(Object.entries(BASE).map(([name, list]) => [name, [...list]]))
  add(
    directives,
    'script-src',
    (needs.scriptOrigins ?? []).filter((origin) => POLICY_ORIGIN.test(origin)),
  )
  const ancestors = frameAncestors(needs.allowedOrigins)
  if (ancestors) directives['frame-ancestors'] = ancestors
  return Object.entries(directives)
    .map(([name, list]) => `${name} ${list.join(' ')}`)
    .join('; ')
}

/** Status pages (not found, closed, …) run no script and load only the share stylesheet. */
export const STATUS_PAGE_POLICY = ["default-src 'none'", "style-src 'self'", 'img-src data:', "base-uri 'none'", "form-action 'none'"].join(
  '; ',
)
