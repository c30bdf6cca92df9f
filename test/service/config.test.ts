import { describe, expect, it } from 'vitest'
import { MAX_HEARTBEAT_SECONDS, STREAM_IDLE_TIMEOUT_MS } from '../../src/protocol/follow-event-stream'
import { ConfigError, DEFAULT_CONFIG, loadConfig } from '../../src/service/config'
import { newToken } from '../../src/service/ids'

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env)
  } catch (error) {
    if (error instanceof ConfigError) return error.problems
    throw error
  }
  return []
}

describe('loadConfig', () => {
  it('uses the documented defaults for an empty environment', () => {
    const config = loadConfig({})
    expect(config).toEqual(DEFAULT_CONFIG)
    expect(config).toMatchObject({
      port: 8787,
      // Reachable from this machine only until an operator says otherwise.
      host: '127.0.0.1',
      dataDir: './.data',
      databaseSchema: 'flow_service',
      sessionTtlSeconds: 86_400,
      bodyLimits: { managementBytes: 2 * 1024 * 1024, chatBytes: 64 * 1024 },
    })
  })

  it('reads every variable', () => {
    const secret = newToken('secret')
    const publishable = newToken('publishable')
    const config = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      WORKERS: '3',
      CODE_WORKERS: '2',
      PUBLIC_URL: 'https://chat.example.com/flows/',
      DATA_DIR: '/var/lib/flows',
      DATABASE_URL: 'postgres://u:p@db:5432/flows',
      DATABASE_SCHEMA: 'tenant_a',
      FLOW_SECRET_TOKEN: secret,
      FLOW_PUBLISHABLE_TOKEN: publishable,
      SESSION_TTL_SECONDS: '600',
      RATE_LIMIT_CHAT_PER_MINUTE: '0',
      RATE_LIMIT_CHAT_BURST: '5',
      RATE_LIMIT_MANAGEMENT_PER_MINUTE: '100',
      RATE_LIMIT_MANAGEMENT_BURST: '10',
      RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '3',
      RATE_LIMIT_AUTH_FAILURES_BURST: '6',
      AI_STREAMS_PER_WORKSPACE: '4',
      AI_STREAM_REPLAYS_PER_MINUTE: '1',
      AI_STREAM_REPLAYS_BURST: '2',
      HANDOFF_STREAMS_PER_WORKSPACE: '50',
      HANDOFF_STREAMS_PER_ADDRESS: '3',
      HANDOFF_STREAM_MAX_SECONDS: '60',
      HANDOFF_HEARTBEAT_SECONDS: '10',
      HANDOFF_MESSAGES_PER_MINUTE: '30',
      HANDOFF_MESSAGES_BURST: '5',
      BODY_LIMIT_MANAGEMENT_BYTES: '4096',
      BODY_LIMIT_CHAT_BYTES: '2048',
      STEP_BYTE_BUDGET: '1048576',
      RESPONSE_BYTE_BUDGET: '65536',
      TRUST_PROXY: 'true',
      OUTBOUND_ALLOW_HOSTS: 'api.internal, 10.0.0.0/8',
      HTTP_CALLS_PER_STEP: '3',
      OUTBOUND_CALLS_PER_WORKSPACE: '5',
      OUTBOUND_LOOKUPS_PER_WORKSPACE: '2',
      OUTBOUND_DNS_SERVERS: '10.0.0.2, 10.0.0.3:5353, [fd00::53]:53',
      SMTP_URL: 'smtps://user:pass@mail.example:465',
      SMTP_FROM: 'Flows <flows@example.com>',
      CREDENTIALS_KEY: 'ab'.repeat(32),
      OPENAI_API_KEY: 'sk-service',
      OPENAI_BASE_URL: 'http://10.0.0.9:11434/v1/',
      MISTRAL_API_KEY: 'mistral-key',
      AI_FIRST_TOKEN_TIMEOUT_SECONDS: '10',
      AI_IDLE_TIMEOUT_SECONDS: '20',
      AI_TOTAL_TIMEOUT_SECONDS: '90',
      UPLOAD_MAX_BYTES: '5242880',
      UPLOAD_SESSION_QUOTA_BYTES: '20000000',
      UPLOAD_CLIENT_UNSENT_BYTES: '30000000',
      UPLOAD_WORKSPACE_UNSENT_BYTES: '40000000',
      UPLOAD_UNSENT_SECONDS: '600',
      UPLOAD_DISK_RESERVE_BYTES: '0',
      S3_BUCKET: 'chat-files',
      S3_ENDPOINT: 'http://minio.internal:9000/',
      S3_REGION: 'eu-west-3',
      S3_ACCESS_KEY_ID: 'key-id',
      S3_SECRET_ACCESS_KEY: 'key-secret',
      S3_FORCE_PATH_STYLE: 'false',
      S3_PREFIX: 'uploads/',
      LOG_LEVEL: 'debug',
      LOG_FORMAT: 'json',
      NODE_ENV: 'development',
      METRICS_TOKEN: 'scraper-token-0123456789',
      RETENTION_INTERVAL_SECONDS: '120',
    })
    expect(config).toEqual({
      port: 9000,
      host: '0.0.0.0',
      workers: 3,
      codeWorkers: 2,
      publicUrl: 'https://chat.example.com/flows',
      dataDir: '/var/lib/flows',
      databaseUrl: 'postgres://u:p@db:5432/flows',
      databaseSchema: 'tenant_a',
      secretToken: secret,
      publishableToken: publishable,
      sessionTtlSeconds: 600,
      retentionIntervalSeconds: 120,
      rateLimits: { chat: { perMinute: 0, burst: 5 }, management: { perMinute: 100, burst: 10 } },
      authFailureLimit: { perMinute: 3, burst: 6 },
      aiStreams: { perWorkspace: 4, replays: { perMinute: 1, burst: 2 } },
      handoffs: {
        streamsPerWorkspace: 50,
        streamsPerAddress: 3,
        streamMaxSeconds: 60,
        heartbeatSeconds: 10,
        messages: { perMinute: 30, burst: 5 },
      },
      bodyLimits: { managementBytes: 4096, chatBytes: 2048 },
      stepBudgets: { stepBytes: 1_048_576, responseBytes: 65_536 },
      trustProxyHops: 1,
      outboundAllowHosts: ['api.internal', '10.0.0.0/8'],
      outboundLimits: { callsPerStep: 3, workspaceCalls: 5, workspaceLookups: 2 },
      outboundDnsServers: ['10.0.0.2', '10.0.0.3:5353', '[fd00::53]:53'],
      smtpUrl: 'smtps://user:pass@mail.example:465',
      smtpFrom: 'Flows <flows@example.com>',
      credentialsKey: 'ab'.repeat(32),
      ai: {
        defaults: { openai: { apiKey: 'sk-service', baseUrl: 'http://10.0.0.9:11434/v1' }, mistral: { apiKey: 'mistral-key' } },
        timeouts: { firstTokenMs: 10_000, idleMs: 20_000, totalMs: 90_000 },
      },
      uploads: {
        maxBytes: 5_242_880,
        s3: {
          bucket: 'chat-files',
          endpoint: 'http://minio.internal:9000',
          region: 'eu-west-3',
          accessKeyId: 'key-id',
          secretAccessKey: 'key-secret',
          forcePathStyle: false,
          prefix: 'uploads/',
        },
        quotas: {
          sessionBytes: 20_000_000,
          clientUnsentBytes: 30_000_000,
          workspaceUnsentBytes: 40_000_000,
          unsentSeconds: 600,
          reserveBytes: 0,
        },
      },
      log: { level: 'debug', format: 'json', stacks: true },
      metricsToken: 'scraper-token-0123456789',
    })
  })

  it('refuses an S3 bucket without its keys', () => {
    expect(problemsOf({ S3_BUCKET: 'chat-files' })).toEqual(['S3_ACCESS_KEY_ID must be set', 'S3_SECRET_ACCESS_KEY must be set'])
  })

  it('refuses an AI base address without its key, and timeouts past two minutes', () => {
    expect(problemsOf({ MISTRAL_BASE_URL: 'http://127.0.0.1:8080/v1', AI_TOTAL_TIMEOUT_SECONDS: '600' })).toEqual([
      'MISTRAL_BASE_URL needs MISTRAL_API_KEY too (any value for a server that checks no key)',
      'AI_TOTAL_TIMEOUT_SECONDS must be a whole number from 1 to 120 (got "600")',
    ])
  })

  it('treats blank values as unset', () => {
    expect(loadConfig({ PORT: '  ', DATABASE_URL: '' })).toMatchObject({ port: 8787, databaseUrl: undefined })
  })

  it('lists every problem, naming the variable', () => {
    const problems = problemsOf({
      PORT: 'eighty',
      SESSION_TTL_SECONDS: '0',
      DATABASE_URL: 'mysql://x',
      DATABASE_SCHEMA: 'Bad-Name',
      FLOW_SECRET_TOKEN: newToken('publishable'),
      FLOW_PUBLISHABLE_TOKEN: 'pk_123',
      TRUST_PROXY: 'maybe',
      RATE_LIMIT_CHAT_BURST: '1.5',
      OUTBOUND_ALLOW_HOSTS: 'ok.example, not a host',
      HTTP_CALLS_PER_STEP: '0',
      OUTBOUND_DNS_SERVERS: 'dns.example',
      SMTP_URL: 'mail.example',
      CREDENTIALS_KEY: 'short',
    })
    expect(problems.map((p) => p.split(' ')[0])).toEqual([
      'PORT',
      'SESSION_TTL_SECONDS',
      'RATE_LIMIT_CHAT_BURST',
      'TRUST_PROXY',
      'HTTP_CALLS_PER_STEP',
      'DATABASE_URL',
      'DATABASE_SCHEMA',
      'FLOW_SECRET_TOKEN',
      'FLOW_PUBLISHABLE_TOKEN',
      'OUTBOUND_ALLOW_HOSTS:',
      'OUTBOUND_DNS_SERVERS',
      'SMTP_URL',
      'CREDENTIALS_KEY',
    ])
    expect(problems[0]).toContain('"eighty"')
  })
})

describe('WORKERS', () => {
  it('refuses more than one process without DATABASE_URL, saying why', () => {
    const [problem] = problemsOf({ WORKERS: '2' })
    expect(problem).toMatch(/^WORKERS=2 needs DATABASE_URL: the embedded database \(PGlite\) lives inside one process/)
    expect(loadConfig({ WORKERS: '2', DATABASE_URL: 'postgres://db/flows' }).workers).toBe(2)
  })
})

describe('HANDOFF_HEARTBEAT_SECONDS', () => {
  it('is at most the heartbeat interval clients count on, so a quiet stream is never taken for a dead one', () => {
    expect(loadConfig({ HANDOFF_HEARTBEAT_SECONDS: String(MAX_HEARTBEAT_SECONDS) }).handoffs.heartbeatSeconds).toBe(MAX_HEARTBEAT_SECONDS)
    expect(problemsOf({ HANDOFF_HEARTBEAT_SECONDS: String(MAX_HEARTBEAT_SECONDS + 1) })).toEqual([
      `HANDOFF_HEARTBEAT_SECONDS must be a whole number from 1 to ${MAX_HEARTBEAT_SECONDS} (got "${MAX_HEARTBEAT_SECONDS + 1}")`,
    ])
    // The console and a team's tools, following with the protocol's follower, wait longer than that.
    expect(STREAM_IDLE_TIMEOUT_MS).toBeGreaterThan(MAX_HEARTBEAT_SECONDS * 1000)
  })
})

describe('PUBLIC_URL', () => {
  it('must be an http(s) address without credentials, query or fragment', () => {
    for (const bad of ['chat.example.com', 'ftp://chat.example.com', 'https://u:p@chat.example.com', 'https://chat.example.com/?a=1']) {
      expect(problemsOf({ PUBLIC_URL: bad })[0]).toMatch(/^PUBLIC_URL/)
    }
  })
})

describe('HOST', () => {
  it('takes an IP address or a host name, and nothing else', () => {
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0')
    expect(loadConfig({ HOST: '[::]' }).host).toBe('::')
    expect(loadConfig({ HOST: 'chat-service.internal' }).host).toBe('chat-service.internal')
    for (const bad of ['http://0.0.0.0', '0.0.0.0:8787', 'a b', 'under_score.example']) {
      expect(problemsOf({ HOST: bad })[0]).toMatch(/^HOST must be an IP address or a host name/)
    }
  })
})

describe('TRUST_PROXY', () => {
  it('reads false, true and a number of proxies', () => {
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxyHops).toBe(0)
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxyHops).toBe(1)
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxyHops).toBe(2)
    expect(problemsOf({ TRUST_PROXY: '99' })[0]).toMatch(/^TRUST_PROXY/)
  })
})

describe('logs and metrics', () => {
  it('write information, as JSON unless on a terminal, without stacks outside development', () => {
    expect(loadConfig({}).log).toEqual({ level: 'info', format: 'auto', stacks: false })
    expect(loadConfig({ LOG_FORMAT: 'pretty', NODE_ENV: 'production' }).log).toEqual({ level: 'info', format: 'pretty', stacks: false })
    expect(loadConfig({}).metricsToken).toBeUndefined()
  })

  it('refuses an unknown level or format, and a metrics token short or with spaces', () => {
    expect(problemsOf({ LOG_LEVEL: 'verbose', LOG_FORMAT: 'xml', METRICS_TOKEN: 'short' })).toEqual([
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "verbose")',
      'LOG_FORMAT must be one of json, pretty (got "xml")',
      'METRICS_TOKEN must be 16 to 256 visible ASCII characters, no spaces (a long random one: it guards /metrics)',
    ])
    expect(problemsOf({ METRICS_TOKEN: 'sixteen chars and spaces' })).toHaveLength(1)
  })
})
