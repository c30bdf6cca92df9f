import type { ApiClient } from './api-client'
import { type CreateCredentialRequest, credentialResponseSchema, credentialsListResponseSchema } from './credentials'

/**
 * The credentials API, call by call, as management-api.ts writes the others: a module of its own,
 * so that a client managing flows only (the console) does not carry the credentials' schemas.
 */

const part = encodeURIComponent

export const listCredentials = async (api: ApiClient) =>
  (await api.read(credentialsListResponseSchema, 'GET', '/v1/credentials')).credentials

export const createCredential = async (api: ApiClient, request: CreateCredentialRequest) =>
  (await api.read(credentialResponseSchema, 'POST', '/v1/credentials', request)).credential

export const removeCredential = async (api: ApiClient, id: string) => void (await api.send('DELETE', `/v1/credentials/${part(id)}`))
