import type { TranscriptChunk } from '../chat/index'
import { GuestBubble, HostBubble } from './bubbles'
import type { WidgetProps } from './widget'

/** Re-renders only when its own chunk grows (signal-driven, so memoized by @preact/signals). */
function ChunkView({ chunk, widget }: WidgetProps & { chunk: TranscriptChunk }) {
  return (
    <>
      {chunk.entries.value.map((entry) =>
        entry.kind === 'host' ? (
          <HostBubble key={entry.key} entry={entry} widget={widget} />
        ) : (
          <GuestBubble key={entry.key} entry={entry} widget={widget} />
        ),
      )}
    </>
  )
}

export function TranscriptView({ widget }: WidgetProps) {
  return (
    <>
      {widget.conversation.transcript.chunks.value.map((chunk) => (
        <ChunkView key={chunk.key} chunk={chunk} widget={widget} />
      ))}
    </>
  )
}
