import { z } from 'zod/mini'
import { opt } from './common'
import { importFlowSchema } from './flow'

/**
 * What the secret-token API says about a workspace's flows and tokens, besides the flows
 * themselves (flow.ts): the list of flows with their result counts, a whole-flow replace from an
 * export, and tokens listed (never their secret), created (the secret shown once) and revoked.
 */

export const flowSummarySchema = z.looseObject({
  id: z.string(),
  publicId: z.string(),
  workspaceId: z.string(),
  name: z.string(),
  icon: opt(z.string()),
  isArchived: z.boolean(),
  isClosed: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** When the live version was published; null when the flow is not published. */
  publishedAt: z.nullable(z.string()),
  results: z.looseObject({ total: z.number(), completed: z.number() }),
})
export type FlowSummary = z.infer<typeof flowSummarySchema>

export const flowsListResponseSchema = z.looseObject({ flows: z.array(flowSummarySchema) })
/** Changes of a flow's standing, each its own call (`POST /v1/flows/{id}/archive`…), each answering the flow's summary. */
export const FLOW_STANDING_CHANGES = ['archive', 'unarchive', 'unpublish'] as const
export type FlowStandingChange = (typeof FLOW_STANDING_CHANGES)[number]

/** What archive, unarchive and unpublish answer. */
export const flowSummaryResponseSchema = z.looseObject({ flow: flowSummarySchema })

/** Most flows one list returns (oldest first). */
export const MAX_FLOWS_LIST = 1_000

/**
 * `PUT /v1/flows/{flowId}`: the flow becomes the export's content, keeping its id, public id,
 * status and results; `updatedAt` (optional) is the one you read, refused with 409 when older.
 */
export const replaceFlowRequestSchema = z.object({ flow: importFlowSchema, updatedAt: opt(z.string()) })

/**
 * `secret`: the workspace's owner (everything); `publishable`: public pages (read published
 * flows); `agent`: a person of the team who answers handed-over conversations (src/protocol/handoff.ts)
 * and nothing else, with the name and picture visitors see.
 */
export const TOKEN_KINDS = ['secret', 'publishable', 'agent'] as const
export type TokenKind = (typeof TOKEN_KINDS)[number]

/** A token's first characters name its kind; 43 URL-safe characters (32 random bytes) follow. */
export const TOKEN_PREFIXES: Record<TokenKind, string> = { secret: 'fs_sk_', publishable: 'fs_pk_', agent: 'fs_ak_' }

/** How a token is named in lists once made (the service keeps no copy of it): its last four characters. */
export const tokenHint = (token: string) => `…${token.slice(-4)}`

/** The kind of a well-formed token, else undefined (whether the service knows it is another question). */
export function tokenKindOf(token: string): TokenKind | undefined {
  if (!/^fs_[a-z]{2}_[A-Za-z0-9_-]{43}$/.test(token)) return undefined
  return TOKEN_KINDS.find((kind) => token.startsWith(TOKEN_PREFIXES[kind]))
}

export const apiTokenSchema = z.looseObject({
  id: z.string(),
  kind: z.enum(TOKEN_KINDS),
  label: z.nullable(z.string()),
  /** The token's last four characters (`…AbC1`); null for tokens made before hints were kept. */
  hint: z.nullable(z.string()),
  createdAt: z.string(),
  /** The token this request was made with. */
  current: z.boolean(),
  /** An agent token's person, as visitors see them. */
  agent: opt(z.looseObject({ name: z.string(), avatarUrl: opt(z.string()) })),
})
export type ApiToken = z.infer<typeof apiTokenSchema>

/** The workspace the token belongs to, and its tokens. */
export const tokensListResponseSchema = z.looseObject({ workspaceId: z.string(), tokens: z.array(apiTokenSchema) })
export const createTokenRequestSchema = z.object({
  kind: z.enum(TOKEN_KINDS),
  label: opt(z.string().check(z.maxLength(200))),
  /** An agent token's person (required for `agent`): the name and the picture (an https address) visitors see. */
  agent: opt(
    z.object({
      name: z.string().check(z.minLength(1), z.maxLength(80)),
      avatarUrl: opt(z.string().check(z.maxLength(2_048))),
    }),
  ),
})
/** `value` is the token itself: shown this once, never stored. */
export const createTokenResponseSchema = z.looseObject({ token: apiTokenSchema, value: z.string() })
export const revokeTokenResponseSchema = z.looseObject({ id: z.string(), revoked: z.literal(true) })

/**
 * A flow's published versions (`GET /v1/flows/{id}/versions`): every publish keeps one, numbered
 * 1, 2, 3… per flow, never changed afterwards. `restoredFrom` is the number a rollback published again.
 */
export const flowVersionSchema = z.looseObject({
  number: z.number(),
  publishedAt: z.string(),
  /** The name of the token that published it (its label, else its last characters); null for versions from before names were kept. */
  publishedBy: z.nullable(z.string()),
  note: z.nullable(z.string()),
  restoredFrom: z.nullable(z.number()),
  /** The version new conversations start on. */
  isLive: z.boolean(),
})
export type FlowVersion = z.infer<typeof flowVersionSchema>

export const flowVersionsResponseSchema = z.looseObject({ versions: z.array(flowVersionSchema) })
/** One version with the flow it published (`GET /v1/flows/{id}/versions/{n}`). */
export const flowVersionResponseSchema = z.looseObject({
  version: flowVersionSchema,
  publishedFlow: z.looseObject({ flowId: z.string() }),
})

/** The longest note a publish keeps. */
export const MAX_VERSION_NOTE = 500
/** `POST /v1/flows/{id}/publish` and `…/versions/{n}/rollback` take an optional body: a note for the new version. */
export const publishRequestSchema = z.object({ note: opt(z.string().check(z.maxLength(MAX_VERSION_NOTE))) })

export const VERSION_CHANGE_AREAS = ['group', 'block', 'edge', 'variable', 'event', 'theme', 'settings'] as const
export type VersionChangeArea = (typeof VERSION_CHANGE_AREAS)[number]

/**
 * One difference between two versions, in the author's words: `summary` names the thing
 * ("Block 'Age' (number input) in group 'About you'"), `details` what changed in it
 * ("placeholder changed from "Type a number..." to "Your age"").
 */
export const versionChangeSchema = z.looseObject({
  area: z.enum(VERSION_CHANGE_AREAS),
  change: z.enum(['added', 'removed', 'changed']),
  /** The group's, block's, edge's, variable's or event's id; null for the theme and the settings. */
  id: z.nullable(z.string()),
  summary: z.string(),
  details: z.array(z.string()),
})
export type VersionChange = z.infer<typeof versionChangeSchema>

/** `GET /v1/flows/{id}/versions/diff?from=A&to=B`: what changed from version A to version B. */
export const versionDiffResponseSchema = z.looseObject({
  from: flowVersionSchema,
  to: flowVersionSchema,
  changes: z.array(versionChangeSchema),
})
export type VersionDiff = z.infer<typeof versionDiffResponseSchema>

/** What publishing and a rollback answer besides the published flow: the new version. */
export const publishedVersionResponseSchema = z.looseObject({ version: flowVersionSchema })
