import type {
  EmailExpectation,
  Ending,
  ExpectedValue,
  FlowTestFailure,
  MessageExpectation,
  StepExpectations,
} from '../../protocol/flow-tests'
import type { ChatMessage, PublishedFlow, VariableValue } from '../../protocol/index'
import { compilePattern, testPattern } from '../engine/blocks/logic/regex-match'
import type { OutgoingEmail } from '../engine/core/ports'
import type { SessionState } from '../engine/core/types'

/**
 * What a scenario expects, checked against what a step did. Each check says what was expected and
 * what was seen, in the author's words; `step` names where (`start`, `answer 2`, `end`).
 */

/** What the step showed: a text bubble's plain text, a media bubble's URL. */
export function messageText(message: ChatMessage): string {
  const content = (message.content ?? {}) as Record<string, unknown>
  for (const field of ['plainText', 'url'] as const) if (typeof content[field] === 'string') return content[field]
  return ''
}

export interface Seen {
  flow: PublishedFlow
  state: SessionState
  messages: string[]
  /** Every e-mail sent so far in the scenario. */
  emails: OutgoingEmail[]
}

export function checkStep(step: string, expected: StepExpectations | undefined, seen: Seen): FlowTestFailure[] {
  if (!expected) return []
  const failures: FlowTestFailure[] = []
  const fail = (what: string, saw: string) => failures.push({ step, expected: what, seen: saw })
  if (expected.messages) checkMessages(expected.messages, seen.messages, fail)
  for (const [name, value] of Object.entries(expected.variables ?? {})) checkVariable(name, value, seen, fail)
  if (expected.emails) checkEmails(expected.emails, seen.emails, fail)
  if (expected.ending !== undefined) {
    const ending = describeEnding(seen)
    if (!endingHolds(expected.ending, seen)) fail(describeExpectedEnding(expected.ending), ending)
  }
  return failures
}

type Fail = (expected: string, seen: string) => void

/** In order, each one a later message than the last: the flow may show more between them. */
function checkMessages(expected: MessageExpectation[], messages: string[], fail: Fail) {
  let from = 0
  for (const wanted of expected) {
    const found = messages.findIndex((message, index) => index >= from && messageMatches(wanted, message))
    if (found === -1) {
      const shown = messages.length === 0 ? 'no message' : messages.map((m) => JSON.stringify(m)).join(', ')
      return fail(describeMessage(wanted) + (from > 0 ? ' after the ones found before it' : ''), shown)
    }
    from = found + 1
  }
}

function messageMatches(wanted: MessageExpectation, text: string): boolean {
  if ('equals' in wanted) return text.trim() === wanted.equals.trim()
  if ('contains' in wanted) return text.includes(wanted.contains)
  // RE2: an author's pattern runs in time linear in the message, on the service too.
  const pattern = compilePattern(wanted.matches)
  return pattern !== undefined && testPattern(pattern, text)
}

function describeMessage(wanted: MessageExpectation): string {
  if ('equals' in wanted) return `a message ${JSON.stringify(wanted.equals)}`
  if ('contains' in wanted) return `a message containing ${JSON.stringify(wanted.contains)}`
  return compilePattern(wanted.matches)
    ? `a message matching ${wanted.matches}`
    : `a message matching ${wanted.matches} (not a pattern this service reads: RE2 syntax, at most 500 characters)`
}

function checkVariable(name: string, expected: ExpectedValue, seen: Seen, fail: Fail) {
  const variable = (seen.flow.variables ?? []).find((candidate) => candidate.name === name)
  const what = `${name} = ${JSON.stringify(expected)}`
  if (!variable) return fail(what, `the flow has no variable named ${JSON.stringify(name)}`)
  const actual = seen.state.variables[variable.id]
  if (!sameValue(expected, actual)) fail(what, `${name} = ${actual === undefined || actual === null ? 'no value' : JSON.stringify(actual)}`)
}

/** Variables hold text: `3` and `"3"` are the same value, `null` is no value at all. */
function sameValue(expected: ExpectedValue, actual: VariableValue | undefined): boolean {
  if (expected === null) return actual === undefined || actual === null
  if (actual === undefined || actual === null) return false
  if (Array.isArray(expected) || Array.isArray(actual)) {
    const list = (value: unknown) => (Array.isArray(value) ? value.map(String) : [String(value)])
    return JSON.stringify(list(expected)) === JSON.stringify(list(actual))
  }
  return String(expected) === String(actual)
}

function checkEmails(expected: EmailExpectation[], emails: OutgoingEmail[], fail: Fail) {
  let from = 0
  for (const wanted of expected) {
    const found = emails.findIndex((email, index) => index >= from && emailMatches(wanted, email))
    if (found === -1) {
      const sent =
        emails.length === 0
          ? 'no e-mail sent'
          : emails.map((email) => `to ${email.to.join(', ')}: ${JSON.stringify(email.subject)}`).join('; ')
      return fail(describeEmail(wanted), sent)
    }
    from = found + 1
  }
}

function emailMatches(wanted: EmailExpectation, email: OutgoingEmail): boolean {
  const body = email.text ?? email.html ?? ''
  return (
    (wanted.to === undefined || [...email.to, ...email.cc, ...email.bcc].some((to) => to.toLowerCase() === wanted.to!.toLowerCase())) &&
    (wanted.subjectContains === undefined || email.subject.includes(wanted.subjectContains)) &&
    (wanted.bodyContains === undefined || body.includes(wanted.bodyContains))
  )
}

function describeEmail(wanted: EmailExpectation): string {
  const parts = [
    wanted.to !== undefined ? `to ${wanted.to}` : '',
    wanted.subjectContains !== undefined ? `with a subject containing ${JSON.stringify(wanted.subjectContains)}` : '',
    wanted.bodyContains !== undefined ? `with a body containing ${JSON.stringify(wanted.bodyContains)}` : '',
  ].filter(Boolean)
  return `an e-mail${parts.length ? ` ${parts.join(' ')}` : ''}`
}

export function endingHolds(expected: Ending, seen: Pick<Seen, 'state'>): boolean {
  const awaiting = seen.state.awaiting
  if (expected === 'finished') return awaiting === null
  if (expected === 'waiting') return awaiting !== null
  return awaiting?.blockId === expected.waitingAt
}

function describeExpectedEnding(expected: Ending): string {
  if (expected === 'finished') return 'the conversation to have finished'
  if (expected === 'waiting') return 'the conversation to wait for an answer'
  return `the conversation to wait at block ${expected.waitingAt}`
}

/** Where the conversation stands, naming the block it waits at and the block's type. */
export function describeEnding({ flow, state }: Pick<Seen, 'flow' | 'state'>): string {
  const awaiting = state.awaiting
  if (awaiting === null) return 'the conversation finished'
  const block = flow.groups.flatMap((group) => group.blocks).find((candidate) => candidate.id === awaiting.blockId)
  return `waiting at block ${awaiting.blockId}${block ? ` (${block.type})` : ''}`
}
