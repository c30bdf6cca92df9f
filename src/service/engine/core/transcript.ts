import type { ChatMessage } from '../../../protocol/index'
import type { TranscriptLine } from './types'

/**
 * The conversation so far as text, for Set variable "Transcript" (typically fed to an AI block).
 * Kept in the session only for flows that use it, and bounded (about the size of one variable
 * value at most): the latest lines win.
 */
export const MAX_TRANSCRIPT_LINES = 100
export const MAX_TRANSCRIPT_LINE_LENGTH = 1_000

export function recordBotLine(transcript: TranscriptLine[], message: ChatMessage): void {
  const text = messageText(message)
  if (text !== undefined && text !== '') push(transcript, { role: 'bot', text })
}

export function recordUserLine(transcript: TranscriptLine[], text: string): void {
  push(transcript, { role: 'user', text })
}

/** `Assistant: "…"` and `User: "…"` lines separated by a blank line, the builders' format. */
export function formatTranscript(transcript: readonly TranscriptLine[]): string {
  return transcript.map((line) => `${line.role === 'bot' ? 'Assistant' : 'User'}: "${line.text}"`).join('\n\n')
}

/** What a bubble says as text: a text's plain text, a media bubble's address. */
function messageText(message: ChatMessage): string | undefined {
  const content = (message.content ?? {}) as { plainText?: unknown; url?: unknown }
  if (message.type === 'text') return typeof content.plainText === 'string' ? content.plainText : undefined
  return typeof content.url === 'string' ? content.url : undefined
}

function push(transcript: TranscriptLine[], line: TranscriptLine): void {
  transcript.push({ ...line, text: line.text.slice(0, MAX_TRANSCRIPT_LINE_LENGTH) })
  if (transcript.length > MAX_TRANSCRIPT_LINES) transcript.splice(0, transcript.length - MAX_TRANSCRIPT_LINES)
}
