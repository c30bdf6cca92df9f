import type { TranscriptChunk } from '../chat/index'
import { GuestBubble, HostBubble } from './bubbles'
import { useWidget } from './widget-context'

/** Re-renders only when its own chunk grows (signal-driven, so memoized by @preact/signals). */
function ChunkView({ chunk }: { chunk: TranscriptChunk }) {
  return (
    <>
      {chunk.entries.value.map((entry) =>
        entry.kind === 'host' ? <HostBubble key={entry.key} entry={entry} /> : <GuestBubble key={entry.key} entry={entry} />,
      )}
    </>
  )
}

export function TranscriptView() {
  const { conversation } = useWidget()
  return (
    <>
      {conversation.transcript.chunks.value.map((chunk) => (
        <ChunkView key={chunk.key} chunk={chunk} />
      ))}
    </>
  )
}
