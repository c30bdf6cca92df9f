/** The widget ↔ sandbox message protocol; the sandbox document announces the one it speaks. */
export const SANDBOX_PROTOCOL_VERSION = 1

/** Prefix of every message type of the protocol, so other traffic on the window is told apart. */
export const MESSAGE_PREFIX = 'flow-chat-sandbox:'

/** Largest result, in characters of its JSON, that crosses back to the page. */
export const MAX_RESULT_CHARS = 100_000
/** Largest `emitHostEvent` payload, in characters of its JSON. */
export const MAX_EVENT_PAYLOAD_CHARS = 32_768
/** Events one run may emit: enough for analytics, too few to flood the page. */
export const MAX_EVENTS_PER_RUN = 50
/** Longest failure message kept from the sandbox. */
export const MAX_FAILURE_MESSAGE_CHARS = 1_000

/** Names `emitHostEvent` accepts (the sandbox checks the same pattern). */
export const EVENT_NAME_PATTERN = /^[A-Za-z][\w.:-]{0,63}$/
