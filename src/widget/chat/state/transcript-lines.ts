import { messageText } from '../../content/plain-text'
import type { TranscriptLine } from '../events/events'
import type { Entry } from './entries'
import type { Transcript } from './transcript'

const iso = (at: number | undefined) => (at === undefined ? {} : { at: new Date(at).toISOString() })

/** One entry as a transcript line (see TranscriptLine). */
function lineOf(entry: Entry): TranscriptLine {
  if (entry.kind === 'guest') return { from: 'visitor', text: entry.text.peek(), ...iso(entry.at) }
  if (entry.kind === 'agent') {
    const person = entry.author === 'agent'
    return {
      from: person ? 'person' : 'service',
      ...(person && entry.agent && { name: entry.agent.name }),
      text: entry.text,
      ...iso(entry.at),
    }
  }
  const { message } = entry
  const url = message.type === 'text' ? undefined : (message.content as { url?: unknown } | undefined)?.url
  return { from: 'flow', text: messageText(message).trim(), ...(typeof url === 'string' && url && { url }), ...iso(entry.at) }
}

/**
 * The conversation's transcript: every message, in order. Built by a chunk of its own, loaded
 * when a conversation ends or the visitor downloads it, so the core carries none of it.
 */
export function transcriptLines(transcript: Transcript): TranscriptLine[] {
  const lines: TranscriptLine[] = []
  for (let index = 0; index < transcript.count.peek(); index++) lines.push(lineOf(transcript.at(index)!))
  return lines
}
