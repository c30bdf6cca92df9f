import { z } from 'zod/mini'

/**
 * Credentials a workspace keeps for its flows' integrations: SMTP for e-mail blocks, API keys
 * for AI blocks. Bodies of the secret-token credentials API; what comes back is always masked.
 */
export const CREDENTIAL_TYPES = ['smtp', 'openai', 'mistral'] as const
export type CredentialType = (typeof CREDENTIAL_TYPES)[number]

/** Fields never returned as they were given, per type. */
export const SECRET_CREDENTIAL_FIELDS: Record<CredentialType, readonly string[]> = {
  smtp: ['password'],
  openai: ['apiKey'],
  mistral: ['apiKey'],
}

/** Ids are chosen by the owner (so an imported flow's `credentialsId` can be matched) or generated. */
export const CREDENTIAL_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/

const text = (max: number) => z.string().check(z.minLength(1), z.maxLength(max))
const optionalText = (max: number) => z.optional(z.string().check(z.maxLength(max)))

export const smtpCredentialDataSchema = z.strictObject({
  host: text(253),
  port: z.int().check(z.gte(1), z.lte(65_535)),
  username: optionalText(320),
  password: optionalText(1_000),
  /** TLS from the first byte (usually port 465); otherwise STARTTLS when the server offers it. */
  isTlsEnabled: z.optional(z.boolean()),
  from: z.strictObject({ name: optionalText(200), email: z.email().check(z.maxLength(320)) }),
})
export type SmtpCredentialData = z.infer<typeof smtpCredentialDataSchema>

export const apiKeyCredentialDataSchema = z.strictObject({
  apiKey: text(1_000),
  /** An OpenAI-compatible API elsewhere than the provider's own. */
  baseUrl: z.optional(z.url({ protocol: /^https?$/ }).check(z.maxLength(2_048))),
})
export type ApiKeyCredentialData = z.infer<typeof apiKeyCredentialDataSchema>

export const CREDENTIAL_DATA_SCHEMAS = {
  smtp: smtpCredentialDataSchema,
  openai: apiKeyCredentialDataSchema,
  mistral: apiKeyCredentialDataSchema,
} as const

export interface CredentialDataByType {
  smtp: SmtpCredentialData
  openai: ApiKeyCredentialData
  mistral: ApiKeyCredentialData
}

const credentialId = () => z.optional(z.string().check(z.regex(CREDENTIAL_ID_PATTERN)))
const credentialName = () => z.optional(z.string().check(z.maxLength(200)))

export const createCredentialRequestSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('smtp'), id: credentialId(), name: credentialName(), data: smtpCredentialDataSchema }),
  z.strictObject({ type: z.literal('openai'), id: credentialId(), name: credentialName(), data: apiKeyCredentialDataSchema }),
  z.strictObject({ type: z.literal('mistral'), id: credentialId(), name: credentialName(), data: apiKeyCredentialDataSchema }),
])
export type CreateCredentialRequest = z.infer<typeof createCredentialRequestSchema>

/** `data` replaces the stored data whole and is checked against the credential's own type. */
export const updateCredentialRequestSchema = z.strictObject({
  name: credentialName(),
  data: z.optional(z.record(z.string(), z.unknown())),
})
export type UpdateCredentialRequest = z.infer<typeof updateCredentialRequestSchema>

/** A credential as every endpoint returns it: secret fields masked (`••••1234`), never whole. */
export const credentialSchema = z.looseObject({
  id: z.string(),
  type: z.string(),
  name: z.string(),
  data: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type Credential = z.infer<typeof credentialSchema>
export const credentialsListResponseSchema = z.looseObject({ credentials: z.array(credentialSchema) })
export const credentialResponseSchema = z.looseObject({ credential: credentialSchema })
