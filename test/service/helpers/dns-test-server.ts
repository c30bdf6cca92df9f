import { createSocket } from 'node:dgram'
import { isIPv4, isIPv6 } from 'node:net'
import ipaddr from 'ipaddr.js'

/** A query the server received: the name asked and the record type (A, AAAA, …). */
export interface DnsQuery {
  name: string
  type: string
}

export interface DnsTestServer {
  /** `127.0.0.1:PORT`, as a resolver's server list names it. */
  address: string
  queries: DnsQuery[]
  /** Distinct names asked so far. */
  namesAsked(): string[]
  close(): Promise<void>
}

const TYPES: Record<number, string> = { 1: 'A', 28: 'AAAA' }

/**
 * A real DNS server on loopback (UDP), for outgoing-call tests: `records` names are answered
 * (A for IPv4 addresses, AAAA for IPv6 ones, with `ttlSeconds`), names for which `silent`
 * holds are never answered at all (a name server that hangs), other names get NXDOMAIN.
 */
export async function startDnsTestServer(
  records: Record<string, string[]>,
  options: { silent?: (name: string) => boolean; ttlSeconds?: number } = {},
): Promise<DnsTestServer> {
  const queries: DnsQuery[] = []
  const socket = createSocket('udp4')
  socket.on('message', (message, remote) => {
    const question = readQuestion(message)
    if (!question) return
    const type = TYPES[question.type] ?? String(question.type)
    queries.push({ name: question.name, type })
    if (options.silent?.(question.name)) return
    const known = records[question.name]
    const addresses = (known ?? []).filter((address) => (type === 'A' ? isIPv4(address) : type === 'AAAA' ? isIPv6(address) : false))
    socket.send(answer(message, question, known ? addresses : undefined, options.ttlSeconds ?? 60), remote.port, remote.address)
  })
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve))
  return {
    address: `127.0.0.1:${socket.address().port}`,
    queries,
    namesAsked: () => [...new Set(queries.map((query) => query.name))],
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  }
}

interface Question {
  name: string
  type: number
  /** Where the question ends in the message. */
  end: number
}

function readQuestion(message: Buffer): Question | undefined {
  if (message.length < 12 || message.readUInt16BE(4) !== 1) return undefined
  const labels: string[] = []
  let offset = 12
  while (offset < message.length && message[offset] !== 0) {
    const length = message[offset]!
    labels.push(message.toString('latin1', offset + 1, offset + 1 + length))
    offset += length + 1
  }
  if (offset + 5 > message.length) return undefined
  return { name: labels.join('.').toLowerCase(), type: message.readUInt16BE(offset + 1), end: offset + 5 }
}

/** The reply: the query's id and question, then one record per address (none: NXDOMAIN when unknown). */
function answer(query: Buffer, question: Question, addresses: string[] | undefined, ttl: number): Buffer {
  const header = Buffer.alloc(12)
  header.writeUInt16BE(query.readUInt16BE(0), 0)
  // QR, the query's RD, RA; RCODE 3 (NXDOMAIN) for an unknown name.
  header.writeUInt16BE(0x8180 | (query.readUInt16BE(2) & 0x0100) | (addresses === undefined ? 3 : 0), 2)
  header.writeUInt16BE(1, 4)
  header.writeUInt16BE(addresses?.length ?? 0, 6)
  const records = (addresses ?? []).map((address) => {
    const data = Buffer.from(ipaddr.parse(address).toByteArray())
    const record = Buffer.alloc(12)
    record.writeUInt16BE(0xc00c, 0) // the name: a pointer to the question's
    record.writeUInt16BE(question.type, 2)
    record.writeUInt16BE(1, 4) // IN
    record.writeUInt32BE(ttl, 6)
    record.writeUInt16BE(data.length, 10)
    return Buffer.concat([record, data])
  })
  return Buffer.concat([header, query.subarray(12, question.end), ...records])
}
