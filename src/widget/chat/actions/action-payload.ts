import type { z } from 'zod/mini'
import { ACTION_PAYLOADS } from '../../../protocol/action-payloads'
import type { ClientAction } from '../../../protocol/chat'
import { readableIssues } from '../../../protocol/issues'
import { TransportError } from '../../transport/index'

type Payloads = typeof ACTION_PAYLOADS

/**
 * The payload of `action` under `name`, checked with its schema (the core read only the
 * action's envelope); undefined when the action has none. One the widget cannot read fails the
 * step, as an unreadable response does.
 */
export function actionPayload<K extends keyof Payloads>(action: ClientAction, name: K): z.output<Payloads[K]> | undefined {
  const raw = action[name]
  if (raw === undefined || raw === null) return undefined
  const parsed = ACTION_PAYLOADS[name].safeParse(raw)
  if (parsed.success) return parsed.data as z.output<Payloads[K]>
  throw new TransportError('invalid-response', `The flow service sent a ${name} action this widget cannot read`, {
    details: readableIssues(parsed.error),
  })
}
