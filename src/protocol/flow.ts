import { z } from 'zod/mini'
import { bool, num, opt, point, str } from './common'
import { settingsSchema } from './settings'
import { themeSchema } from './theme'

export const eventSchema = z.looseObject({
  id: z.string(),
  outgoingEdgeId: str(),
  graphCoordinates: opt(point),
  type: z.string(),
})
export type FlowEvent = z.infer<typeof eventSchema>

/** An item of a choice, picture choice or condition block: each may leave by its own edge. */
export const blockItemSchema = z.looseObject({
  id: z.string(),
  outgoingEdgeId: str(),
  content: opt(z.unknown()),
})

/**
 * Any block. Its `type` decides the shape of `content`, `options` and `items` (see blocks.ts);
 * unknown types are kept as they are, because an import must not lose what a newer builder wrote.
 */
export const blockSchema = z.looseObject({
  id: z.string(),
  type: z.string(),
  outgoingEdgeId: str(),
  content: opt(z.unknown()),
  options: opt(z.unknown()),
  items: opt(z.array(blockItemSchema)),
})
export type Block = z.infer<typeof blockSchema>

export const groupSchema = z.looseObject({
  id: z.string(),
  title: str(),
  graphCoordinates: opt(point),
  blocks: z.array(blockSchema),
})
export type Group = z.infer<typeof groupSchema>

export const edgeSchema = z.looseObject({
  id: z.string(),
  from: z.looseObject({ blockId: str(), itemId: str(), eventId: str() }),
  to: z.looseObject({ groupId: z.string(), blockId: str() }),
})
export type Edge = z.infer<typeof edgeSchema>

export const variableSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  value: opt(z.union([z.string(), z.number(), z.boolean(), z.array(z.string())])),
})
export type Variable = z.infer<typeof variableSchema>

export const resultsTablePreferencesSchema = z.looseObject({
  columnsOrder: opt(z.array(z.string())),
  columnsVisibility: opt(z.record(z.string(), z.unknown())),
  columnsWidth: opt(z.record(z.string(), z.unknown())),
})
export type ResultsTablePreferences = z.infer<typeof resultsTablePreferencesSchema>

/** The runnable content of a flow: what publishing snapshots. */
const contentShape = {
  version: str(),
  events: z.array(eventSchema),
  groups: z.array(groupSchema),
  edges: z.array(edgeSchema),
  variables: opt(z.array(variableSchema)),
  theme: opt(themeSchema),
  settings: opt(settingsSchema),
}

/** The fields an import or an update may set, besides the flow content. */
const editableShape = {
  name: str(),
  icon: str(),
  folderId: str(),
  selectedThemeTemplateId: str(),
  resultsTablePreferences: opt(resultsTablePreferencesSchema),
}

export const flowSchema = z.looseObject({
  ...contentShape,
  ...editableShape,
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  publicId: str(),
  customDomain: str(),
  workspaceId: z.string(),
  isArchived: bool(),
  isClosed: bool(),
  messagingAppCredentialsId: str(),
  riskLevel: num(),
})
export type Flow = z.infer<typeof flowSchema>

/**
 * The `flow` of an import body. Exports from other services carry their own id, timestamps and
 * workspace: they are accepted and ignored (the service assigns its own), so files import unchanged.
 */
export const importFlowSchema = z.looseObject({ ...contentShape, ...editableShape })
export type ImportFlow = z.infer<typeof importFlowSchema>

export const importFlowRequestSchema = z.object({
  workspaceId: z.string().check(z.minLength(1)),
  flow: importFlowSchema,
})

/** The `flow` of an update body: every field optional; omitted fields keep their stored value. */
export const updateFlowSchema = z.looseObject({
  version: str(),
  events: opt(z.array(eventSchema)),
  groups: opt(z.array(groupSchema)),
  edges: opt(z.array(edgeSchema)),
  variables: opt(z.array(variableSchema)),
  theme: opt(themeSchema),
  settings: opt(settingsSchema),
  ...editableShape,
  publicId: str(),
  customDomain: str(),
  isClosed: bool(),
  messagingAppCredentialsId: str(),
  riskLevel: num(),
  updatedAt: str(),
})
export type UpdateFlow = z.infer<typeof updateFlowSchema>

export const updateFlowRequestSchema = z.object({ flow: updateFlowSchema })

export const flowResponseSchema = z.looseObject({ flow: flowSchema })
export const getFlowResponseSchema = z.looseObject({ flow: flowSchema, currentUserMode: z.string() })

export const publishedFlowSchema = z.looseObject({
  ...contentShape,
  id: z.string(),
  version: str(),
  createdAt: z.string(),
  updatedAt: z.string(),
  flowId: z.string(),
})
export type PublishedFlow = z.infer<typeof publishedFlowSchema>

/** What publishing answers: the new live version. */
export const publishResponseSchema = z.looseObject({ publishedFlow: publishedFlowSchema })

export const publishedFlowResponseSchema = z.looseObject({
  publishedFlow: publishedFlowSchema,
  version: z.string(),
})
export type PublishedFlowResponse = z.infer<typeof publishedFlowResponseSchema>
