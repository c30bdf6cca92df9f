import { INPUT_TYPES, MESSAGE_TYPES } from '../../../protocol/index'

/** Block types the engine runs itself; every other type is skipped with an info log. */
export const LOGIC_TYPES = ['Set variable', 'Condition', 'Redirect', 'Script', 'Wait', 'Jump', 'Return', 'Typebot link'] as const
export type LogicType = (typeof LOGIC_TYPES)[number]
export type BubbleType = (typeof MESSAGE_TYPES)[number]
export type InputType = (typeof INPUT_TYPES)[number]

const bubbleTypes: ReadonlySet<string> = new Set(MESSAGE_TYPES)
const inputTypes: ReadonlySet<string> = new Set(INPUT_TYPES)
const logicTypes: ReadonlySet<string> = new Set(LOGIC_TYPES)

export const isBubbleType = (type: string): type is BubbleType => bubbleTypes.has(type)
export const isInputType = (type: string): type is InputType => inputTypes.has(type)
export const isLogicType = (type: string): type is LogicType => logicTypes.has(type)
