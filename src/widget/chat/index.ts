export { DEFAULT_ACTION_RUNNERS } from './actions/built-in'
export {
  type ActionContext,
  type ActionOutcome,
  type ActionRunner,
  type ActionRunners,
  lazyRunner,
  type Navigate,
  runClientAction,
} from './actions/runners'
export { createConversation } from './conversation/conversation'
export type { Conversation, ConversationMemory, ConversationOptions } from './conversation/conversation-types'
export { DEFAULT_TYPING, type TypingSettings, typingDuration, typingSettings } from './conversation/typing'
export type {
  DiagnosticCode,
  Emit,
  FlowChatErrorDetail,
  FlowChatEventMap,
  FlowChatEventType,
  FlowChatLogDetail,
  FlowChatScriptEventDetail,
  TranscriptLine,
} from './events/events'
export { chunkFailure, isSetUpMistake, widgetWarning } from './events/events'
export { type CommandError, refuseCommand } from './events/failures'
export type { SavedConversation } from './memory/saved-schema'
export type { AgentEntry, Entry, GuestEntry, HostEntry, LiveMessage, ReplyStatus, StreamedAnswer } from './state/entries'
export type { LiveHandoff } from './state/live-handoff'
export type { ActiveInput, Failure, Pending, RestartReason, Stage, StageTag } from './state/stage'
export { isWaitingForWebhook, liveHandoff } from './state/stage'
export { CHUNK_SIZE, loadTranscriptLines, type Transcript, type TranscriptChunk } from './state/transcript'
