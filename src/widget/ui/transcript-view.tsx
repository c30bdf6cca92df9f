import type { TranscriptChunk } from '../chat/index'
import { GuestBubble, HostBubble } from './bubbles'
import { agentLineView } from './status-views'
import type { WidgetProps } from './widget'

/** Re-renders only when its own chunk grows (signal-driven, so memoized by @preact/signals). */
function ChunkView({ chunk, widget }: WidgetProps & { chunk: TranscriptChunk }) {
  return (
    <>
      {chunk.entries.value.map((entry) =>
        entry.kind === 'host' ? (
          <HostBubble key={entry.key} entry={entry} widget={widget} />
        ) : entry.kind === 'agent' ? (
          // The person's words as plain text until their view is here (or if it cannot load).
          <agentLineView.View key={entry.key} entry={entry} widget={widget} fallback={<p>{entry.text}</p>} />
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
