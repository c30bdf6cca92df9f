/**
 * The attacks of `npm run bench:abuse` (abuse.ts): what an anonymous client sends through the
 * surfaces that need no token, each on ATTACK_CONNECTIONS connections at once, a refused request
 * tried again at once. They run in a process of their own (abuse-attacker.ts).
 */
import { randomBytes } from 'node:crypto'

export const ATTACK_CONNECTIONS = 8
const UPLOAD_BYTES = 10_000_000

/** What an attack got: its answers by status (0: the connection failed), and what was stored. */
export interface Tally {
  statuses: Record<number, number>
  storedBytes: number
}

export type Flows = Record<'quiet' | 'files', string>

interface Attack {
  name: string
  /** One request of connection `connection`, its `n`th; returns the status. */
  request(url: string, connection: number, n: number, flows: Flows, tally: Tally): Promise<number>
}

const oneAddress = () => '198.51.100.66'
/** A new address of one /64 for every request. */
const oneNetwork = (connection: number, n: number) => `2001:db8:66:1:${(connection + 1).toString(16)}::${(n + 1).toString(16)}`

let texts = 0
const qrAttack = (name: string, address: (connection: number, n: number) => string, length = 1_000): Attack => ({
  name,
  async request(url, connection, n) {
    const text = `${++texts}:${'x'.repeat(1_000)}`.slice(0, length)
    const response = await fetch(`${url}/v1/qr-code?text=${encodeURIComponent(text)}`, {
      headers: { 'x-forwarded-for': address(connection, n) },
    })
    await response.arrayBuffer()
    return response.status
  },
})

/** One file's bytes, made when an upload attack first needs them. */
let file: Buffer<ArrayBuffer> | undefined
/** Each connection's conversation, started anew when its file question is full or refused. */
const sessions = new Map<number, string>()
const uploadAttack = (name: string, address: (connection: number, n: number) => string): Attack => ({
  name,
  async request(url, connection, n, flows, tally) {
    const from = { 'x-forwarded-for': address(connection, n) }
    let session = sessions.get(connection)
    if (!session) {
      const started = await fetch(`${url}/v1/flows/${flows.files}/startChat`, {
        method: 'POST',
        headers: { ...from, 'content-type': 'application/json' },
        body: '{}',
      })
      const chat = (await started.json()) as { sessionId?: string }
      if (!chat.sessionId) return started.status
      session = chat.sessionId
      sessions.set(connection, session)
    }
    const response = await fetch(`${url}/v1/sessions/${session}/uploads?name=scan-${n}.bin`, {
      method: 'POST',
      headers: { ...from, 'content-type': 'application/octet-stream' },
      body: (file ??= randomBytes(UPLOAD_BYTES) as Buffer<ArrayBuffer>),
    })
    await response.arrayBuffer()
    if (response.status === 201) tally.storedBytes += UPLOAD_BYTES
    else sessions.delete(connection)
    return response.status
  },
})

export const ATTACKS: Attack[] = [
  // The floor: the same flood, every request refused (past its rate limit, or an empty text), nothing drawn.
  qrAttack('floor: the same flood refused without drawing (QR codes of an empty text), one address', oneAddress, 0),
  qrAttack('QR codes of distinct 1,000-character texts, one address', oneAddress),
  qrAttack('QR codes of distinct 1,000-character texts, a new address of one /64 each', oneNetwork),
  uploadAttack('10 MB uploads never sent, one address', oneAddress),
  uploadAttack('10 MB uploads never sent, a new address of one /64 each', oneNetwork),
]

/** Runs `attack` on ATTACK_CONNECTIONS connections until the returned function is called. */
export function launch(url: string, attack: Attack, flows: Flows, tally: Tally): () => Promise<void> {
  let stopped = false
  const connections = Array.from({ length: ATTACK_CONNECTIONS }, async (_, connection) => {
    for (let n = 0; !stopped; n++) {
      let status: number
      try {
        status = await attack.request(url, connection, n, flows, tally)
      } catch {
        status = 0
      }
      tally.statuses[status] = (tally.statuses[status] ?? 0) + 1
      // A refused client tries again at once: refusals must stay cheap.
    }
  })
  return async () => {
    stopped = true
    await Promise.all(connections)
  }
}
