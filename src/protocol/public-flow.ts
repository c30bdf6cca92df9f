import { z } from 'zod/mini'
import { chatGeneralShape, rememberUserSchema, typingEmulationSchema } from './chat-settings'
import { bool, opt, str } from './common'
import { themeLayoutSchema } from './theme-layout'

/**
 * A published flow as a publishable token reads it (contract.md, "Tokens"): what the widget renders
 * before and around a conversation, and nothing of the flow's program. The service answers this
 * schema's parse of the snapshot and the widget parses the answer with it, so a field missing here
 * never leaves the service. Its objects drop the keys they do not name (the theme aside, public as
 * a whole), so nothing an owner put beside a setting is revealed: never groups, blocks, their
 * options or code, edges, events, variables or credentials. The secret token reads the whole
 * snapshot (`publishedFlowSchema`, ./flow).
 */
export const publicFlowSchema = z.object({
  id: z.string(),
  flowId: z.string(),
  /**
   * The flow's name as its owner calls it now (the snapshot has none: the service adds the flow's):
   * a bubble's or popup's title when the page gives none.
   */
  name: str(),
  version: str(),
  createdAt: str(),
  updatedAt: z.string(),
  theme: opt(themeLayoutSchema),
  settings: opt(
    z.object({
      general: opt(z.object({ ...chatGeneralShape, rememberUser: opt(z.object(rememberUserSchema.shape)) })),
      typingEmulation: opt(z.object(typingEmulationSchema.shape)),
      // A launcher shows the title; the share page's other metadata is written by the service.
      metadata: opt(z.object({ title: str() })),
      publicShare: opt(z.object({ isEnabled: bool() })),
    }),
  ),
  /**
   * What the blocks to come need the widget to prepare, each once: the message types
   * (`MESSAGE_TYPES`) and input types (`INPUT_TYPES`) the flow's blocks show, and `stream` (the
   * client action, `CLIENT_ACTION_TYPES`) when an AI block may stream an answer, `handoff` (the
   * client action) when a `handoff` block may hand the conversation to a person.
   */
  blockKinds: opt(z.array(z.string())),
})
export type PublicFlow = z.infer<typeof publicFlowSchema>

export const publicFlowResponseSchema = z.object({ publishedFlow: publicFlowSchema, version: str() })
export type PublicFlowResponse = z.infer<typeof publicFlowResponseSchema>
