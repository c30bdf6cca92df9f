import { useSignalEffect } from '@preact/signals'
import type { Conversation } from '../chat/index'
import { INPUT_CHUNKS } from './inputs/input-views'
import { MESSAGE_CHUNKS, preloadMessageView, streamedAnswerView } from './message-content'
import { restartNoticeView, waitingView } from './status-views'

/** Blocks whose answer streams (integrations.md §4): their view is requested with the flow. */
const AI_BLOCKS: ReadonlySet<unknown> = new Set(['openai', 'mistral', 'OpenAI'])

/** Requests the chunks of these message, input and action types (and block types that stream). */
function preload(types: Iterable<unknown>): void {
  for (const type of types) {
    if (AI_BLOCKS.has(type) || type === 'stream') streamedAnswerView.preload()
    if (typeof type !== 'string') continue
    INPUT_CHUNKS.get(type)?.preload()
    MESSAGE_CHUNKS.get(type)?.preload()
  }
}

/** The block types of a published flow (read defensively: the widget does not parse its groups). */
function* blockTypes(flow: unknown): Iterable<unknown> {
  const groups = (flow as { groups?: unknown }).groups
  if (!Array.isArray(groups)) return
  for (const group of groups) {
    const blocks = (group as { blocks?: unknown } | null)?.blocks
    if (Array.isArray(blocks)) for (const block of blocks) yield (block as { type?: unknown } | null)?.type
  }
}

/**
 * Requests the lazily loaded views a conversation is going to need before it needs them: those of
 * every block type of the published flow as soon as it arrives (and the restart notice when it
 * remembers users), and those of each step as soon as the service sends it (while its bubbles
 * play), so no visitor waits on a chunk.
 */
export function usePreloadViews(conversation: Conversation): void {
  useSignalEffect(() => {
    const flow = conversation.publishedFlow.value
    if (!flow) return
    preload(blockTypes(flow))
    // Only a remembered conversation restarts, with a notice saying why.
    if (flow.settings?.general?.rememberUser?.isEnabled) restartNoticeView.preload()
  })
  useSignalEffect(() => {
    const stage = conversation.stage.value
    if (stage.tag !== 'playing') return
    preload([stage.step.input?.type, ...(stage.step.clientSideActions ?? []).map((action) => action.type)])
    for (const message of stage.step.messages ?? []) preloadMessageView(message)
    if (stage.step.clientSideActions?.some((action) => action.type === 'listenForWebhook')) waitingView.preload()
  })
}
