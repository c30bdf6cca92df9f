import { useSignalEffect } from '@preact/signals'
import type { Conversation } from '../chat/index'
import { INPUT_CHUNKS } from './inputs/input-views'
import { MESSAGE_CHUNKS, preloadMessageView, streamedAnswerView } from './message-content'
import { handoffView, restartNoticeView, waitingView } from './status-views'

/** A person's message: Markdown, through the content view's sanitiser. */
const AGENT_MESSAGE = { id: '', type: 'text', content: { plainText: '', format: 'markdown' } }

/**
 * Requests the chunks of these message, input and action types (`stream`: an AI answer;
 * `handoff`: a block or action handing the chat to a person; the conversation requests its runner).
 */
function preload(types: Iterable<unknown>): void {
  for (const type of types) {
    if (type === 'stream') streamedAnswerView.preload()
    if (type === 'handoff') {
      handoffView.preload()
      preloadMessageView(AGENT_MESSAGE)
    }
    if (typeof type !== 'string') continue
    INPUT_CHUNKS.get(type)?.preload()
    MESSAGE_CHUNKS.get(type)?.preload()
  }
}

/**
 * Requests the lazily loaded views a conversation is going to need before it needs them: those of
 * the kinds of block the published flow announces (`blockKinds`) as soon as it arrives (and the
 * restart notice when it remembers users), and those of each step as soon as the service sends it
 * (while its bubbles play), so no visitor waits on a chunk.
 */
export function usePreloadViews(conversation: Conversation): void {
  useSignalEffect(() => {
    const flow = conversation.publishedFlow.value
    if (!flow) return
    preload(flow.blockKinds ?? [])
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
