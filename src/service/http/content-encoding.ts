export type Encoding = 'br' | 'gzip' | 'identity'

/** The q-value (0…1) the header gives each coding it names, `*` included. */
function weights(header: string): Map<string, number> {
  const map = new Map<string, number>()
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';')
    if (!name) continue
    // A malformed weight counts as 0: the coding is not used rather than guessed at.
    const q = params.map((param) => /^\s*q\s*=(.*)$/.exec(param)?.[1]?.trim()).find((value) => value !== undefined)
    const weight = q === undefined ? 1 : /^[0-9.]+$/.test(q) ? Number(q) : 0
    map.set(name.trim(), Number.isFinite(weight) ? Math.min(Math.max(weight, 0), 1) : 0)
  }
  return map
}

/**
 * The content coding to answer with (RFC 9110 §12.5.3): the first of `available` (smallest first)
 * the client accepts with a non-zero weight, else the file as it is. No header, or one naming none
 * of ours, means identity; an explicit `identity;q=0` is not honoured, since every file exists
 * unencoded and a 406 would only break a page.
 */
export function contentEncoding(header: string | undefined, available: readonly Exclude<Encoding, 'identity'>[]): Encoding {
  if (!header) return 'identity'
  const accepted = weights(header)
  const wildcard = accepted.get('*')
  let best: Encoding = 'identity'
  let bestWeight = 0
  for (const encoding of available) {
    const weight = accepted.get(encoding) ?? (encoding === 'gzip' ? accepted.get('x-gzip') : undefined) ?? wildcard ?? 0
    if (weight > bestWeight) {
      best = encoding
      bestWeight = weight
    }
  }
  return best
}
