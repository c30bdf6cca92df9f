import { randomSlugSuffix } from '../ids'

/** What a public id may look like: it appears in share URLs and embed snippets. */
export const PUBLIC_ID_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/

/**
 * Paths of the service's own pages at the top level: a share page `/{publicId}` there would be
 * hidden by them (or hide them), so no flow may take these.
 */
export const RESERVED_PUBLIC_IDS: ReadonlySet<string> = new Set(['admin', 'metrics', 'widget', 'dist', 'sandbox', 'share', 'v1'])

const MAX_SLUG_BASE = 40

/** "Lead Scoring — Été" → "lead-scoring-ete"; empty when nothing usable is left. */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, MAX_SLUG_BASE)
    .replace(/^-+|-+$/g, '')
}

/** A readable, unguessable-enough public id: the name's slug plus a short random suffix. */
export function generatePublicId(name: string): string {
  const base = slugify(name) || 'flow'
  return `${base}-${randomSlugSuffix()}`
}
