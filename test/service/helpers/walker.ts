import type { ChatInput } from '../../../src/protocol/index'

/** A plausible, valid answer for any input type a flow may ask for. */
export function answerFor(input: ChatInput): string {
  const options = input.options ?? {}
  const firstItem = input.items?.[0]
  switch (input.type) {
    case 'number input': {
      const min = typeof options.min === 'number' ? options.min : undefined
      const max = typeof options.max === 'number' ? options.max : undefined
      return String(Math.min(max ?? 30, Math.max(min ?? 30, 30)))
    }
    case 'email input':
      return 'ada@example.com'
    case 'url input':
      return 'https://example.com/'
    case 'phone number input':
      return '+14155550123'
    case 'date input':
      return '2026-01-15'
    case 'rating input': {
      const startsAt = typeof options.startsAt === 'number' ? options.startsAt : 0
      const length = typeof options.length === 'number' ? options.length : 10
      return String(startsAt + length - 1)
    }
    case 'choice input':
      if (!firstItem) throw new Error(`choice input ${input.id} has no items`)
      return firstItem.value ?? String(firstItem.content ?? '')
    case 'picture choice input':
      if (!firstItem) throw new Error(`picture choice input ${input.id} has no items`)
      return firstItem.value ?? firstItem.title ?? firstItem.id
    case 'file input':
      // No file in a walk: an optional file input is skipped (a required one asks again).
      return ''
    case 'cards': {
      // A card's first button: its path id is the answer.
      const path = (firstItem as { paths?: { id: string }[] } | undefined)?.paths?.[0]
      if (!path) throw new Error(`cards ${input.id} have no button`)
      return path.id
    }
    default:
      return 'Ada Lovelace'
  }
}
