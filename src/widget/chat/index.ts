export {
  DEFAULT_ACTION_RUNNERS,
  lazyRunner,
  runClientAction,
  type ActionContext,
  type ActionOutcome,
  type ActionRunner,
  type ActionRunners,
  type Navigate,
} from './actions'
export { createConversation } from './conversation'
export type { Conversation, ConversationMemory, ConversationOptions, RestartReason } from './conversation-types'
export type { ActiveInput, Failure, Pending, Stage, StageTag } from './stage'
export type { SavedConversation } from './saved-schema'
export type { Entry, GuestEntry, HostEntry, ReplyStatus, StreamedAnswer } from './entries'
export type {
  DiagnosticCode,
  Emit,
  FlowChatErrorDetail,
  FlowChatEventMap,
  FlowChatEventType,
  FlowChatLogDetail,
  FlowChatScriptEventDetail,
} from './events'
export { chunkFailure, widgetWarning } from './events'
export { refuseCommand, type CommandError } from './failures'
export { isWaitingForWebhook } from './stage'
export { CHUNK_SIZE, type Transcript, type TranscriptChunk } from './transcript'
export { DEFAULT_TYPING, typingDuration, typingSettings, type TypingSettings } from './typing'
