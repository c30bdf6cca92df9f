export { DEFAULT_ACTION_RUNNERS } from './actions/built-in'
export {
  lazyRunner,
  runClientAction,
  type ActionContext,
  type ActionOutcome,
  type ActionRunner,
  type ActionRunners,
  type Navigate,
} from './actions/runners'
export { createConversation } from './conversation/conversation'
export type { Conversation, ConversationMemory, ConversationOptions } from './conversation/conversation-types'
export type { ActiveInput, Failure, Pending, RestartReason, Stage, StageTag } from './state/stage'
export type { SavedConversation } from './memory/saved-schema'
export type { AgentEntry, Entry, GuestEntry, HostEntry, LiveMessage, ReplyStatus, StreamedAnswer } from './state/entries'
export type { LiveHandoff } from './state/live-handoff'
export type {
  DiagnosticCode,
  Emit,
  FlowChatErrorDetail,
  FlowChatEventMap,
  FlowChatEventType,
  FlowChatLogDetail,
  FlowChatScriptEventDetail,
} from './events/events'
export { chunkFailure, isSetUpMistake, widgetWarning } from './events/events'
export { refuseCommand, type CommandError } from './events/failures'
export { isWaitingForWebhook, liveHandoff } from './state/stage'
export { CHUNK_SIZE, type Transcript, type TranscriptChunk } from './state/transcript'
export { DEFAULT_TYPING, typingDuration, typingSettings, type TypingSettings } from './conversation/typing'
