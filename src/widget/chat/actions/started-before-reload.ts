import type { ClientAction } from '../../../protocol/chat'

/*
 * How a resumed step tells an action's runner that this action was already started before the
 * page reloaded (the saved record's `started`, remembered.ts), so a runner with side effects (an
 * HTTP request from the browser) can decide whether running it again is safe. A property rather
 * than a shared object: each chunk carries its own copy of this module, and a registered symbol is
 * the same in every copy. A symbol, so no action the service sends (JSON) can carry the mark; not
 * enumerable, so it never reaches storage again or the service: the record's `started` stays the
 * one source.
 */
const KEY = Symbol.for('flow-chat:started-before-reload')

/** A copy of `action`, marked as started before the reload. */
export const startedBeforeReload = (action: ClientAction): ClientAction => Object.defineProperty({ ...action }, KEY, { value: true })

/** Whether a reload interrupted `action` after it had started (it may have had its effect). */
export const wasStartedBeforeReload = (action: ClientAction): boolean => (action as Record<symbol, unknown>)[KEY] === true
