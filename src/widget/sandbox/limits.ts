/**
 * The widget ↔ sandbox protocol: its version, message names, patterns and caps. The widget's
 * runner and the sandbox document (built from ./document by the same build) both read them here,
 * so the two sides can never disagree.
 */
export const SANDBOX_PROTOCOL_VERSION = 1

/** Prefix of every message type of the protocol, so other traffic on the window is told apart. */
export const MESSAGE_PREFIX = 'flow-chat-sandbox:'

/** A run's id: 128 random bits as hex. */
export const RUN_ID_PATTERN = /^[0-9a-f]{32}$/
/** Names `emitHostEvent` accepts. */
export const EVENT_NAME_PATTERN = /^[A-Za-z][\w.:-]{0,63}$/

/** Largest result, in characters of its JSON, that crosses back to the page. */
export const MAX_RESULT_CHARS = 100_000
/** Largest `emitHostEvent` payload, in characters of its JSON. */
export const MAX_EVENT_PAYLOAD_CHARS = 32_768
/** Events one run may emit: enough for analytics, too few to flood the page. */
export const MAX_EVENTS_PER_RUN = 50
/** Longest failure message that crosses the frame's protocol. */
export const MAX_FAILURE_MESSAGE_CHARS = 1_000
/** Longest failure message the Worker writes (clipped there, before it travels anywhere). */
export const MAX_SCRIPT_FAILURE_CHARS = 500

/**
 * The most a run message may ask for: the sandbox document refuses anything above, so a run
 * message can never lift the frame's own caps.
 */
export const RUN_LIMIT_CEILINGS = { resultChars: 1_000_000, eventChars: 262_144, events: 1_000 } as const
