import type { TypingEvent } from '../../../protocol/handoff'
import { log } from '../../observability/log'
import type { StoredHandoffEvent } from '../../store/handoffs-repository'
import type { Store } from '../../store/store'

/**
 * This process's open streams, fed through PostgreSQL: every change to a handoff commits with a
 * `pg_notify` naming the handoff, its workspace and its new `seq` (handoffs-repository.ts), or
 * carrying a typing signal (never stored). The hub LISTENs once per process and, for each
 * notification, reads the new events once for all its subscribers of that handoff (a visitor's
 * stream, a person's) and of its workspace (inboxes), each getting only what comes after what it
 * already has. So a visitor on one process and a person on another see each other's messages as
 * soon as they commit, and a notification lost while the listening connection was down is made
 * up by reading again from each subscriber's position (`onReconnect`). Never an in-process bus.
 */

/** Events read at once; more are read page after page. */
const PAGE = 500

export interface HandoffSubscriber {
  /** Stored events after the subscriber's position, in order, each once. */
  onEvents(events: StoredHandoffEvent[]): void
  onTyping?(typing: TypingEvent & { handoffId: string }): void
  /** The process is shutting down: the stream ends (its client reconnects, to another process). */
  onClosed?(): void
}

interface Subscription<Key> {
  key: Key
  /** The last `seq` (a handoff's) or `position` (a workspace's) the subscriber has. */
  after: number
  subscriber: HandoffSubscriber
  /** Which typing signals it gets: the other side's. */
  typingFrom?: TypingEvent['author']
}

interface Notification {
  h: string
  w: string
  s?: number
  t?: TypingEvent
}

/** Reads for one key run one after another; a notification during a read asks for one more. */
class Pump {
  private running: Promise<void> | undefined
  private again = false

  constructor(private readonly read: () => Promise<void>) {}

  run(): Promise<void> {
    if (this.running) {
      this.again = true
      return this.running
    }
    this.running = (async () => {
      do {
        this.again = false
        try {
          await this.read()
        } catch (error) {
          log().warn({ err: error }, 'reading a live conversation’s events failed')
        }
      } while (this.again)
    })().finally(() => {
      this.running = undefined
    })
    return this.running
  }
}

export class HandoffHub {
  private readonly handoffs = new Map<string, Set<Subscription<string>>>()
  private readonly inboxes = new Map<string, Set<Subscription<string>>>()
  private readonly pumps = new Map<string, Pump>()
  private listening: Promise<() => Promise<void>> | undefined
  private closed = false

  constructor(private readonly store: Store) {}

  /** Follows a handoff's events after `afterSeq` (replayed first), and the other side's typing. */
  async follow(
    handoffId: string,
    afterSeq: number,
    subscriber: HandoffSubscriber,
    typingFrom?: TypingEvent['author'],
  ): Promise<() => void> {
    return this.add(this.handoffs, `h:${handoffId}`, handoffId, afterSeq, subscriber, typingFrom)
  }

  /** Follows a workspace's events after `afterPosition` (replayed first), and visitors typing. */
  async followWorkspace(workspaceId: string, afterPosition: number, subscriber: HandoffSubscriber): Promise<() => void> {
    return this.add(this.inboxes, `w:${workspaceId}`, workspaceId, afterPosition, subscriber, 'visitor')
  }

  /** Open subscriptions in this process (the streams' gauge). */
  get size(): number {
    let n = 0
    for (const set of [...this.handoffs.values(), ...this.inboxes.values()]) n += set.size
    return n
  }

  /** Sends a typing signal to every process's subscribers of the handoff (not stored). */
  async typing(handoffId: string, workspaceId: string, typing: TypingEvent): Promise<void> {
    const payload: Notification = { h: handoffId, w: workspaceId, t: typing }
    await this.store.database.query('SELECT pg_notify($1, $2)', [this.store.tables.handoffChannel, JSON.stringify(payload)])
  }

  async close(): Promise<void> {
    this.closed = true
    for (const set of [...this.handoffs.values(), ...this.inboxes.values()]) {
      for (const subscription of set) subscription.subscriber.onClosed?.()
    }
    this.handoffs.clear()
    this.inboxes.clear()
    const stop = await this.listening?.catch(() => undefined)
    await stop?.().catch(() => undefined)
  }

  private async add(
    map: Map<string, Set<Subscription<string>>>,
    pumpKey: string,
    key: string,
    after: number,
    subscriber: HandoffSubscriber,
    typingFrom?: TypingEvent['author'],
  ): Promise<() => void> {
    // Listening first: an event committed from now on is notified, and one before is read below.
    await this.listen()
    const subscription: Subscription<string> = { key, after, subscriber, ...(typingFrom ? { typingFrom } : {}) }
    let set = map.get(key)
    if (!set) map.set(key, (set = new Set()))
    set.add(subscription)
    await this.pump(pumpKey)
    return () => {
      const current = map.get(key)
      current?.delete(subscription)
      if (current?.size === 0) {
        map.delete(key)
        this.pumps.delete(pumpKey)
      }
    }
  }

  private listen(): Promise<() => Promise<void>> {
    this.listening ??= this.store.database.listen(
      this.store.tables.handoffChannel,
      (payload) => this.notified(payload),
      () => this.reread(),
    )
    return this.listening
  }

  private notified(payload: string): void {
    let note: Notification
    try {
      note = JSON.parse(payload) as Notification
    } catch {
      return
    }
    if (note.t) {
      this.typed(note.h, note.w, note.t)
      return
    }
    if (this.handoffs.has(note.h)) void this.pump(`h:${note.h}`)
    if (this.inboxes.has(note.w)) void this.pump(`w:${note.w}`)
  }

  private typed(handoffId: string, workspaceId: string, typing: TypingEvent): void {
    const signal = { ...typing, handoffId }
    for (const subscription of [...(this.handoffs.get(handoffId) ?? []), ...(this.inboxes.get(workspaceId) ?? [])]) {
      if (subscription.typingFrom === typing.author) subscription.subscriber.onTyping?.(signal)
    }
  }

  /** After the listening connection came back: every subscriber reads what it may have missed. */
  private reread(): void {
    for (const id of this.handoffs.keys()) void this.pump(`h:${id}`)
    for (const id of this.inboxes.keys()) void this.pump(`w:${id}`)
  }

  private pump(pumpKey: string): Promise<void> {
    let pump = this.pumps.get(pumpKey)
    if (!pump) {
      const [kind, key] = [pumpKey.slice(0, 1), pumpKey.slice(2)]
      pump = new Pump(() => (kind === 'h' ? this.readHandoff(key) : this.readWorkspace(key)))
      this.pumps.set(pumpKey, pump)
    }
    return pump.run()
  }

  private async readHandoff(handoffId: string): Promise<void> {
    const set = this.handoffs.get(handoffId)
    if (!set || set.size === 0 || this.closed) return
    for (let from = Math.min(...[...set].map((subscription) => subscription.after)); ; ) {
      const events = await this.store.handoffs.events(handoffId, from, PAGE)
      deliver(set, events, (event) => event.seq)
      if (events.length < PAGE) return
      from = events[events.length - 1]!.seq
    }
  }

  private async readWorkspace(workspaceId: string): Promise<void> {
    const set = this.inboxes.get(workspaceId)
    if (!set || set.size === 0 || this.closed) return
    for (let from = Math.min(...[...set].map((subscription) => subscription.after)); ; ) {
      const events = await this.store.handoffs.workspaceEvents(workspaceId, from, PAGE)
      deliver(set, events, (event) => event.position)
      if (events.length < PAGE) return
      from = events[events.length - 1]!.position
    }
  }
}

/** Hands each subscriber the events past its own position, and moves it. */
function deliver(set: Set<Subscription<string>>, events: StoredHandoffEvent[], positionOf: (event: StoredHandoffEvent) => number): void {
  if (events.length === 0) return
  for (const subscription of set) {
    const fresh = events.filter((event) => positionOf(event) > subscription.after)
    if (fresh.length === 0) continue
    subscription.after = positionOf(fresh[fresh.length - 1]!)
    try {
      subscription.subscriber.onEvents(fresh)
    } catch (error) {
      log().warn({ err: error }, 'a live conversation’s subscriber failed')
    }
  }
}
