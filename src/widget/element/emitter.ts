import type { Emit, FlowChatErrorDetail, FlowChatLogDetail } from '../chat/index'

/** Development builds also print to the console, with the stable code to search the README for. */
function devConsole(type: string, detail: unknown): void {
  if (type === 'flowchat:error') {
    const { message, code } = detail as FlowChatErrorDetail
    console.error(`[flow-chat] ${message} (${code})`, detail)
  } else if (type === 'flowchat:log') {
    const { status, description, code } = detail as FlowChatLogDetail
    const log = status === 'error' ? console.error : status === 'warning' ? console.warn : console.info
    log(`[flow-chat] ${description} (${code})`, detail)
  }
}

/**
 * Every event leaves the element as a composed, bubbling CustomEvent, so a listener on the element,
 * an ancestor or the document sees it. A throwing page listener cannot break the widget:
 * `dispatchEvent` reports listener errors instead of rethrowing them.
 */
export function createEmitter(host: HTMLElement): Emit {
  return (type, detail) => {
    if (import.meta.env.DEV) devConsole(type, detail)
    host.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }))
  }
}
