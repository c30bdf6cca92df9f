/**
 * Where the service never connects on a flow's behalf unless `OUTBOUND_ALLOW_HOSTS` names the
 * host: every address that reaches the machine itself, its private networks or a cloud's
 * metadata service. Kept as data: docs/security.md prints this list and the tests walk it.
 */
export interface RefusedRange {
  cidr: string
  /** What lives there, in a few words (shown in logs and docs/security.md). */
  name: string
}

export const REFUSED_RANGES: readonly RefusedRange[] = [
  { cidr: '0.0.0.0/8', name: '"this network" (0.0.0.0 reaches the local machine)' },
  { cidr: '10.0.0.0/8', name: 'private network' },
  { cidr: '100.64.0.0/10', name: 'carrier-grade NAT (incl. 100.100.100.200, a cloud metadata service)' },
  { cidr: '127.0.0.0/8', name: 'loopback' },
  { cidr: '169.254.0.0/16', name: 'link-local (incl. 169.254.169.254, cloud metadata services)' },
  { cidr: '172.16.0.0/12', name: 'private network' },
  { cidr: '192.0.0.0/24', name: 'IETF protocol assignments' },
  { cidr: '192.0.2.0/24', name: 'documentation (TEST-NET-1)' },
  { cidr: '192.88.99.0/24', name: '6to4 relay anycast' },
  { cidr: '192.168.0.0/16', name: 'private network' },
  { cidr: '198.18.0.0/15', name: 'benchmarking' },
  { cidr: '198.51.100.0/24', name: 'documentation (TEST-NET-2)' },
  { cidr: '203.0.113.0/24', name: 'documentation (TEST-NET-3)' },
  { cidr: '224.0.0.0/4', name: 'multicast' },
  { cidr: '240.0.0.0/4', name: 'reserved (incl. 255.255.255.255 broadcast)' },
  { cidr: '::/128', name: 'unspecified' },
  { cidr: '::1/128', name: 'loopback' },
  // IPv4-mapped addresses (::ffff:a.b.c.d) are checked as the IPv4 address they carry.
  { cidr: '::/96', name: 'IPv4-compatible (deprecated; carries an IPv4 address)' },
  { cidr: '64:ff9b::/96', name: 'NAT64 (carries an IPv4 address)' },
  { cidr: '64:ff9b:1::/48', name: 'local-use NAT64 (carries an IPv4 address)' },
  { cidr: '100::/64', name: 'discard-only' },
  { cidr: '2001::/32', name: 'Teredo (carries an IPv4 address)' },
  { cidr: '2001:db8::/32', name: 'documentation' },
  { cidr: '2002::/16', name: '6to4 (carries an IPv4 address)' },
  { cidr: 'fc00::/7', name: 'unique local (incl. fd00:ec2::254, a cloud metadata service)' },
  { cidr: 'fe80::/10', name: 'link-local' },
  { cidr: 'fec0::/10', name: 'site-local (deprecated)' },
  { cidr: 'ff00::/8', name: 'multicast' },
]

/** Names of metadata services, refused before any DNS lookup (they resolve only inside a cloud). */
export const REFUSED_HOST_NAMES: readonly string[] = [
  'localhost',
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
]
