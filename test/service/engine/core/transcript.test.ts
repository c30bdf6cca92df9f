import { describe, expect, it } from 'vitest'
import {
  formatTranscript,
  MAX_TRANSCRIPT_LINE_LENGTH,
  MAX_TRANSCRIPT_LINES,
  recordBotLine,
  recordUserLine,
} from '../../../../src/service/engine/core/transcript'
import type { TranscriptLine } from '../../../../src/service/engine/core/types'

describe('transcript', () => {
  it('records text bubbles by their plain text, media by address, and skips what says nothing', () => {
    const lines: TranscriptLine[] = []
    recordBotLine(lines, { id: 'a', type: 'text', content: { plainText: 'Hello' } })
    recordBotLine(lines, { id: 'b', type: 'image', content: { url: 'https://example.com/cat.png' } })
    recordBotLine(lines, { id: 'c', type: 'embed', content: {} })
    recordUserLine(lines, 'Hi')
    expect(formatTranscript(lines)).toBe('Assistant: "Hello"\n\nAssistant: "https://example.com/cat.png"\n\nUser: "Hi"')
  })

  it('keeps only the latest lines, each cut to the length cap', () => {
    const lines: TranscriptLine[] = []
    for (let i = 0; i < MAX_TRANSCRIPT_LINES + 10; i++) recordUserLine(lines, `answer ${i}`)
    recordUserLine(lines, 'x'.repeat(MAX_TRANSCRIPT_LINE_LENGTH + 5))
    expect(lines).toHaveLength(MAX_TRANSCRIPT_LINES)
    expect(lines[0]?.text).toBe('answer 11')
    expect(lines.at(-1)?.text).toHaveLength(MAX_TRANSCRIPT_LINE_LENGTH)
  })
})
