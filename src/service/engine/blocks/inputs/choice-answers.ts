import { itemLabel, type RenderedItem, storedValue } from './choice-items'

/** Longest answer list considered: more pieces than any real choice list has. */
const MAX_PIECES = 500

/**
 * The items an answer names. The widget sends an item's stored value, several joined with
 * ", "; a typed answer may also use the label. Matching ignores case and surrounding spaces,
 * and an item whose own text contains a comma is still recognised.
 */
export function matchChoice(
  message: string,
  items: readonly RenderedItem[],
  isPicture: boolean,
  isMultiple: boolean,
): RenderedItem[] | undefined {
  const byKey = new Map<string, RenderedItem>()
  for (const item of items) {
    for (const key of keysOf(item, isPicture)) if (!byKey.has(key)) byKey.set(key, item)
  }
  const whole = byKey.get(normalize(message))
  if (whole) return [whole]
  if (!isMultiple) return undefined
  return matchList(message, byKey)
}

function matchList(message: string, byKey: ReadonlyMap<string, RenderedItem>): RenderedItem[] | undefined {
  const pieces = message.split(',')
  if (pieces.length > MAX_PIECES) return undefined
  let widest = 1
  for (const key of byKey.keys()) widest = Math.max(widest, key.split(',').length)
  const chosen = new Map<string, RenderedItem>()
  let start = 0
  while (start < pieces.length) {
    if (normalize(pieces[start] ?? '') === '') {
      start++
      continue
    }
    let matched = false
    // Longest run of pieces first, so "Salt, pepper" beats "Salt" when both are items.
    for (let end = Math.min(pieces.length, start + widest); end > start; end--) {
      const item = byKey.get(normalize(pieces.slice(start, end).join(',')))
      if (item) {
        chosen.set(item.id, item)
        start = end
        matched = true
        break
      }
    }
    if (!matched) return undefined
  }
  return chosen.size > 0 ? [...chosen.values()] : undefined
}

function keysOf(item: RenderedItem, isPicture: boolean): string[] {
  const keys = [storedValue(item, isPicture), itemLabel(item, isPicture)]
  if (isPicture) keys.push(item.id)
  return keys.map(normalize).filter((key) => key !== '')
}

function normalize(text: string): string {
  return text.trim().toLowerCase()
}
