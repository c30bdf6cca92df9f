import type { z } from 'zod/mini'
// Named zod imports, not the `z` namespace: the rich-inputs chunk imports this module, and takes
// from the core's zod only what it uses (build/lazy-chunks.ts).
import { looseObject } from 'zod/mini'
import { bool, numeric, opt, str } from './common'

export const inputLabelsSchema = looseObject({
  placeholder: str(),
  button: str(),
  from: str(),
  to: str(),
  left: str(),
  right: str(),
})

/**
 * Options of every input type in one loose object: each type reads the fields it knows. The
 * widget's rich-inputs chunk checks them before its views read them (the core reads only the
 * text field's, `textInputOptionsSchema` in ./chat).
 */
export const inputOptionsSchema = looseObject({
  labels: opt(inputLabelsSchema),
  variableId: str(),
  isLong: bool(),
  min: numeric(),
  max: numeric(),
  step: numeric(),
  retryMessageContent: str(),
  hasTime: bool(),
  isRange: bool(),
  format: str(),
  isMultipleChoice: bool(),
  isSearchable: bool(),
  buttonLabel: str(),
  searchInputPlaceholder: str(),
  buttonType: str(),
  length: numeric(),
  startsAt: numeric(),
  isOneClickSubmitEnabled: bool(),
  customIcon: opt(looseObject({ isEnabled: bool(), svg: str() })),
  defaultCountryCode: str(),
})
export type InputOptions = z.infer<typeof inputOptionsSchema>
