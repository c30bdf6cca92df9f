import { publicFlowSchema, type PublicFlow, type PublishedFlow } from '../../protocol/index'
import { isAiBlockType } from '../engine/blocks/ai/ai-options'
import { isBubbleType, isInputType } from '../engine/blocks/block-kinds'
import { QR_CODE_BLOCK_TYPE } from '../engine/blocks/qr-code'

/**
 * What a publishable token reads of a published flow (contract.md, "Tokens"): the fields of
 * `publicFlowSchema` and nothing else, whatever the snapshot holds.
 */
export function toPublicFlow(flow: PublishedFlow): PublicFlow {
  return publicFlowSchema.parse({ ...flow, blockKinds: blockKinds(flow) })
}

/** The message and input types the flow's blocks show, and `stream` when one may stream an AI answer. */
function blockKinds(flow: PublishedFlow): string[] {
  const kinds = new Set<string>()
  for (const group of flow.groups) {
    for (const { type } of group.blocks) {
      if (isBubbleType(type) || isInputType(type)) kinds.add(type)
      else if (isAiBlockType(type)) kinds.add('stream')
      // A QR code shows as a picture.
      else if (type === QR_CODE_BLOCK_TYPE) kinds.add('image')
    }
  }
  return [...kinds].sort()
}
