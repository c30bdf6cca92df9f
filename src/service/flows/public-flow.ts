import { HANDOFF_BLOCK_TYPE } from '../../protocol/handoff'
import { type PublicFlow, type PublishedFlow, publicFlowSchema } from '../../protocol/index'
import { isAiBlockType } from '../engine/blocks/ai/ai-options'
import { isBubbleType, isInputType } from '../engine/blocks/block-kinds'
import { QR_CODE_BLOCK_TYPE } from '../engine/blocks/qr-code'

/**
 * What a publishable token reads of a published flow (contract.md, "Tokens"): the fields of
 * `publicFlowSchema` and nothing else, whatever the snapshot holds, with the flow's `name` (a
 * launcher's title), which the snapshot does not carry.
 */
export function toPublicFlow(flow: PublishedFlow, name: string): PublicFlow {
  return publicFlowSchema.parse({ ...flow, name, blockKinds: blockKinds(flow) })
}

/** The message and input types the flow's blocks show; `stream` when one may stream an AI answer, `handoff` when one hands over to a person. */
function blockKinds(flow: PublishedFlow): string[] {
  const kinds = new Set<string>()
  for (const group of flow.groups) {
    for (const { type } of group.blocks) {
      if (isBubbleType(type) || isInputType(type)) kinds.add(type)
      else if (isAiBlockType(type)) kinds.add('stream')
      // A QR code shows as a picture.
      else if (type === QR_CODE_BLOCK_TYPE) kinds.add('image')
      // The widget preloads its live chunk (the `handoff` client action).
      else if (type === HANDOFF_BLOCK_TYPE) kinds.add('handoff')
    }
  }
  return [...kinds].sort()
}
