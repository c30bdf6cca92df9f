import type { Block } from '../../../../protocol/index'
import { type Continuation, follow } from '../../core/continuation'
import { asFields, readBoolean, readString, toFiniteNumber } from '../../core/field-readers'
import type { Step } from '../../core/step'
import { codeProgram, parameterize } from '../code-params'
import { describeFailure } from './set-variable'

/** Schemes a redirect may open; `javascript:` and `data:` would run code in the host page. */
const SAFE_SCHEMES = new Set(['http:', 'https:', 'mailto:', 'tel:', 'sms:'])
const HAS_SCHEME = /^[a-z][a-z\d+.-]*:/i

/** `Redirect` → `{type: "redirect", redirect: {url, isNewTab}}`; the walk goes on. */
export function runRedirect(block: Block, step: Step): Continuation {
  const options = asFields(block.options)
  const url = safeRedirectUrl(step.substitute(readString(options, 'url') ?? ''))
  if (url === undefined) {
    step.skip(block, 'warning', 'Redirect skipped: its URL is missing or not allowed')
  } else {
    step.addAction({ type: 'redirect', redirect: { url, isNewTab: readBoolean(options, 'isNewTab') === true } })
  }
  return follow(block.outgoingEdgeId)
}

/**
 * Absolute http(s), mail, phone and SMS links pass; a bare domain is read as https; a path
 * (`/thanks`) stays relative to the host page. Anything else is refused.
 */
export function safeRedirectUrl(raw: string): string | undefined {
  const text = raw.trim()
  if (text === '' || /[\s<>"]/.test(text)) return undefined
  if (text.startsWith('/') && !text.startsWith('//')) return text
  const absolute = HAS_SCHEME.test(text) ? text : `https://${text.replace(/^\/\//, '')}`
  try {
    const url = new URL(absolute)
    return SAFE_SCHEMES.has(url.protocol) ? absolute : undefined
  } catch {
    return undefined
  }
}

/** `Wait` → `{type: "wait", wait: {secondsToWaitFor}}`, as a number even when exported as text. */
export function runWait(block: Block, step: Step): Continuation {
  const raw = asFields(block.options).secondsToWaitFor
  const seconds = toFiniteNumber(typeof raw === 'string' ? step.substitute(raw) : raw)
  if (seconds === undefined || seconds < 0) {
    step.skip(block, 'warning', 'Wait skipped: its duration is not a number of seconds')
  } else if (seconds > 0) {
    step.addAction({ type: 'wait', wait: { secondsToWaitFor: seconds } })
  }
  return follow(block.outgoingEdgeId)
}

/**
 * `Script`: sent to the widget (the default) with each `{{Var}}` as a parameter and its value in
 * `args`; with `isExecutedOnClient: false` it runs in the sandbox, its result is ignored.
 */
export async function runScript(block: Block, step: Step): Promise<Continuation> {
  const options = asFields(block.options)
  const content = readString(options, 'content') ?? ''
  if (content.trim() !== '') {
    const { code, args } = parameterize(content, step.index, step.variables)
    if (readBoolean(options, 'isExecutedOnClient') === false) {
      const outcome = await step.runCode(codeProgram(code, args))
      if (outcome.status !== 'ok' && outcome.status !== 'not-a-value') {
        step.log('error', describeFailure(outcome, step.limits.timeoutMs), { blockId: block.id })
      }
    } else {
      step.addAction({ type: 'scriptToExecute', scriptToExecute: { content: code, args } })
    }
  }
  return follow(block.outgoingEdgeId)
}
