import { INPUT_TYPES, MESSAGE_TYPES } from '../../../protocol/index'

/** Bubbles show a message; inputs wait for the visitor (the protocol's lists of each). */
export type BubbleType = (typeof MESSAGE_TYPES)[number]
export type InputType = (typeof INPUT_TYPES)[number]

const bubbleTypes: ReadonlySet<string> = new Set(MESSAGE_TYPES)
const inputTypes: ReadonlySet<string> = new Set(INPUT_TYPES)

export const isBubbleType = (type: string): type is BubbleType => bubbleTypes.has(type)
export const isInputType = (type: string): type is InputType => inputTypes.has(type)
