import { type Emit, type FlowChatErrorDetail, type FlowChatLogDetail, isSetUpMistake } from '../chat/index'

/** A failure in the console, with its stable code. */
const report = (detail: FlowChatErrorDetail) => console.error(`[flow-chat] ${detail.message} (${detail.code})`, detail)

/**
 * Development builds also print to the console, with the stable code to look up in
 * docs/site-owners/troubleshooting.md.
 */
function devConsole(type: string, detail: unknown): void {
  if (type === 'flowchat:error') report(detail as FlowChatErrorDetail)
  else if (type === 'flowchat:log') {
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
    // A set-up mistake is the site owner's to fix: said in every build, where they look first.
    else if (type === 'flowchat:error' && isSetUpMistake((detail as FlowChatErrorDetail).code)) report(detail as FlowChatErrorDetail)
    host.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }))
  }
}
