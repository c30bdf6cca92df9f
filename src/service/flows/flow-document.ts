import type { Flow, ImportFlow, PublishedFlow, UpdateFlow } from '../../protocol/index'
import type { FlowRecord } from '../store/flows-repository'
import { migrateToV6 } from './flow-migration'

/**
 * The shape work between request bodies, stored flow content and responses. Server-owned fields
 * (ids, workspace, flags, timestamps) live in columns; `content` keeps everything the author
 * edits, including fields this service does not know, so nothing an export carries is lost.
 */

export const LATEST_FLOW_VERSION = '6.1'
/** Versions that become the latest one unchanged: 6.1 only added fields that stay optional. */
const SAME_AS_LATEST = new Set(['6', '6.1'])

export const DEFAULT_FLOW_NAME = 'Untitled flow'

/** Columns, never part of `content`. */
const COLUMN_FIELDS = ['id', 'workspaceId', 'publicId', 'isClosed', 'isArchived', 'createdAt', 'updatedAt']
/** Also dropped on import: they belong to the account the flow was exported from. */
const FOREIGN_FIELDS = ['customDomain', 'riskLevel']

type Json = Record<string, unknown>

/** Renames the brand-named fields of exports to the neutral names the service uses. */
export function withNeutralNames<T extends Json>(flow: T): T {
  const out: Json = { ...flow }
  if ('whatsAppCredentialsId' in out) {
    if (out.messagingAppCredentialsId === undefined) out.messagingAppCredentialsId = out.whatsAppCredentialsId
    delete out.whatsAppCredentialsId
  }
  const settings = out.settings
  if (settings !== null && typeof settings === 'object' && 'whatsApp' in settings) {
    const { whatsApp, ...rest } = settings as Json
    out.settings = rest.messagingApp === undefined ? { ...rest, messagingApp: whatsApp } : rest
  }
  return out as T
}

/** Content of a newly imported flow. */
export function contentFromImport(flow: ImportFlow): Json {
  const content: Json = withNeutralNames({ ...flow })
  for (const field of [...COLUMN_FIELDS, ...FOREIGN_FIELDS]) delete content[field]
  if (typeof content.name !== 'string' || content.name.trim() === '') content.name = DEFAULT_FLOW_NAME
  return content
}

/**
 * Content of a flow replaced by an export (`PUT`): the export's content, as an import would
 * store it. What the export cannot know stays: the custom domain and risk level (which an import
 * drops), and the results table's preferences unless the export has its own.
 */
export function replaceContent(stored: Json, flow: ImportFlow): Json {
  const content = contentFromImport(flow)
  for (const field of FOREIGN_FIELDS) if (stored[field] !== undefined) content[field] = stored[field]
  if (content.resultsTablePreferences == null && stored.resultsTablePreferences != null) {
    content.resultsTablePreferences = stored.resultsTablePreferences
  }
  return content
}

/** Fields a flow must always have; an update may replace them but not clear them. */
const REQUIRED_CONTENT = ['name', 'events', 'groups', 'edges']

/**
 * New content after an update: present fields replace, omitted fields are kept. Returns the
 * names of required fields the update tried to set to null (the caller refuses those).
 */
export function applyContentUpdate(content: Json, update: UpdateFlow): { content: Json; clearedRequired: string[] } {
  const next: Json = { ...content }
  const clearedRequired: string[] = []
  for (const [field, value] of Object.entries(withNeutralNames({ ...update }))) {
    if (COLUMN_FIELDS.includes(field) || value === undefined) continue
    if (value === null && REQUIRED_CONTENT.includes(field)) {
      clearedRequired.push(field)
      continue
    }
    next[field] = value
  }
  return { content: next, clearedRequired }
}

export function migrateVersion(version: unknown, toLatest: boolean): string | null {
  if (typeof version !== 'string') return null
  return toLatest && SAME_AS_LATEST.has(version) ? LATEST_FLOW_VERSION : version
}

/** The API form of a stored flow: every Flow field present, unset ones as null. */
export function toFlow(record: FlowRecord, options: { migrateToLatestVersion?: boolean } = {}): Flow {
  const c = options.migrateToLatestVersion ? migrateToV6(record.content) : record.content
  const field = (name: string) => (c[name] === undefined ? null : c[name])
  return {
    ...c,
    version: migrateVersion(c.version, options.migrateToLatestVersion ?? false),
    id: record.id,
    name: typeof c.name === 'string' ? c.name : DEFAULT_FLOW_NAME,
    events: arrayField(c.events),
    groups: arrayField(c.groups),
    edges: arrayField(c.edges),
    variables: field('variables'),
    theme: field('theme'),
    selectedThemeTemplateId: field('selectedThemeTemplateId'),
    settings: field('settings'),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    icon: field('icon'),
    folderId: field('folderId'),
    publicId: record.publicId,
    customDomain: field('customDomain'),
    workspaceId: record.workspaceId,
    resultsTablePreferences: field('resultsTablePreferences'),
    isArchived: record.isArchived,
    isClosed: record.isClosed,
    messagingAppCredentialsId: field('messagingAppCredentialsId'),
    riskLevel: field('riskLevel'),
  } as Flow
}

/**
 * What publishing freezes: the runnable part of the flow, and nothing about its owner. Content an
 * update left in an older schema version is migrated, so the engine only ever runs version 6.
 */
export function toPublishedSnapshot(
  record: FlowRecord,
  ids: { publishedFlowId: string; createdAt: string; updatedAt: string },
): PublishedFlow {
  const c = migrateToV6(record.content)
  return {
    id: ids.publishedFlowId,
    version: migrateVersion(c.version, false),
    createdAt: ids.createdAt,
    updatedAt: ids.updatedAt,
    flowId: record.id,
    groups: arrayField(c.groups),
    events: arrayField(c.events),
    edges: arrayField(c.edges),
    variables: (c.variables ?? []) as PublishedFlow['variables'],
    theme: (c.theme ?? {}) as PublishedFlow['theme'],
    settings: (c.settings ?? {}) as PublishedFlow['settings'],
  } as PublishedFlow
}

export function withMigratedVersion(flow: PublishedFlow, toLatest: boolean): PublishedFlow {
  const migrated = toLatest ? migrateToV6(flow) : flow
  return { ...migrated, version: migrateVersion(migrated.version, toLatest) }
}

function arrayField(value: unknown): unknown[] {
  return Array.isArray(value) ? value : []
}
