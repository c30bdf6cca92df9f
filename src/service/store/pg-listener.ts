import pg from 'pg'
import { log } from '../observability/log'

/**
 * LISTEN on a PostgreSQL server: one dedicated connection per process (a pooled one would be
 * handed to other statements, and lose its LISTENs when recycled). When it fails, it connects
 * again with a growing pause and LISTENs again on every channel, then tells each subscriber
 * (`onReconnect`) so it reads what it may have missed meanwhile.
 */

interface Subscriber {
  channel: string
  onPayload: (payload: string) => void
  onReconnect?: () => void
}

const RETRY_MS = [100, 250, 500, 1_000, 2_000, 5_000]

export class PgListener {
  private client: pg.Client | undefined
  private connecting: Promise<pg.Client> | undefined
  private readonly subscribers = new Set<Subscriber>()
  private closed = false
  private failures = 0

  constructor(private readonly connectionString: string) {}

  async listen(channel: string, onPayload: (payload: string) => void, onReconnect?: () => void): Promise<() => Promise<void>> {
    const subscriber = { channel, onPayload, ...(onReconnect ? { onReconnect } : {}) }
    const listening = this.channels().has(channel)
    this.subscribers.add(subscriber)
    const client = await this.connection()
    if (!listening) await client.query(`LISTEN ${quote(channel)}`)
    return async () => {
      this.subscribers.delete(subscriber)
      if (this.channels().has(channel) || !this.client) return
      await this.client.query(`UNLISTEN ${quote(channel)}`).catch(() => undefined)
    }
  }

  async close(): Promise<void> {
    this.closed = true
    this.subscribers.clear()
    const client = this.client
    this.client = undefined
    await client?.end().catch(() => undefined)
  }

  private channels(): Set<string> {
    return new Set([...this.subscribers].map((subscriber) => subscriber.channel))
  }

  private connection(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client)
    this.connecting ??= this.connect().finally(() => {
      this.connecting = undefined
    })
    return this.connecting
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.connectionString })
    client.on('notification', (message) => {
      for (const subscriber of this.subscribers) {
        if (subscriber.channel === message.channel) subscriber.onPayload(message.payload ?? '')
      }
    })
    const lost = (error?: Error) => {
      if (this.client !== client) return
      this.client = undefined
      if (this.closed) return
      log().warn({ err: error }, 'the database connection listening for live conversations failed; connecting again')
      void client.end().catch(() => undefined)
      this.reconnect()
    }
    client.on('error', lost)
    client.on('end', () => lost())
    await client.connect()
    this.client = client
    return client
  }

  private reconnect(): void {
    const delay = RETRY_MS[Math.min(this.failures, RETRY_MS.length - 1)]!
    const timer = setTimeout(async () => {
      if (this.closed || this.subscribers.size === 0) return
      try {
        const client = await this.connection()
        for (const channel of this.channels()) await client.query(`LISTEN ${quote(channel)}`)
        this.failures = 0
        for (const subscriber of this.subscribers) subscriber.onReconnect?.()
      } catch (error) {
        this.failures++
        log().warn({ err: error }, 'listening for live conversations again failed; trying later')
        this.client = undefined
        this.reconnect()
      }
    }, delay)
    timer.unref()
  }
}

/** Channels are identifiers; ours are plain, but quoted all the same. */
const quote = (channel: string) => `"${channel.replace(/"/g, '""')}"`
