import { signal, type Signal } from '@preact/signals'
import type { ChatMessage } from '../../protocol/index'

/** A message from the flow, immutable once shown. */
export interface HostEntry {
  kind: 'host'
  /** Unique in the transcript (a loop can show the same block, hence the same message id, twice). */
  key: string
  message: ChatMessage
  /** Avatar from `dynamicTheme` when the message was shown; otherwise the theme's. */
  avatarUrl: string | undefined
  /** Shown again from a remembered conversation: already read out on the earlier page. */
  restored?: true
}

/**
 * - `sending`: on its way (including automatic retries);
 * - `sent`: the service accepted it;
 * - `failed`: retries spent; the visitor can retry (same idempotency key);
 * - `rejected`: the service refused it (4xx); `error` says why and the input comes back.
 */
export type ReplyStatus = 'sending' | 'sent' | 'failed' | 'rejected'

/** The visitor's answer: its own signals, so a status change re-renders only this bubble. */
export interface GuestEntry {
  kind: 'guest'
  key: string
  text: Signal<string>
  status: Signal<ReplyStatus>
  error: Signal<string | null>
  avatarUrl: string | undefined
}

export type Entry = HostEntry | GuestEntry

let counter = 0
const nextKey = () => `e${++counter}`

export const hostEntry = (message: ChatMessage, avatarUrl: string | undefined, restored = false): HostEntry => ({
  kind: 'host',
  key: nextKey(),
  message,
  avatarUrl,
  ...(restored && { restored: true }),
})

export const guestEntry = (text: string, avatarUrl: string | undefined): GuestEntry => ({
  kind: 'guest',
  key: nextKey(),
  text: signal(text),
  status: signal<ReplyStatus>('sending'),
  error: signal<string | null>(null),
  avatarUrl,
})
