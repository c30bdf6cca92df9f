/**
 * A flow that never ends, so a benchmark can answer it forever: a greeting, a text input, a reply
 * that uses the answer, and a jump back to the input.
 */
export const benchFlow = {
  version: '6.1',
  name: 'Benchmark loop',
  events: [{ id: 'start', type: 'start', outgoingEdgeId: 'e-start' }],
  edges: [
    { id: 'e-start', from: { eventId: 'start' }, to: { groupId: 'ask' } },
    { id: 'e-answer', from: { blockId: 'name' }, to: { groupId: 'reply' } },
  ],
  variables: [{ id: 'vname', name: 'Name' }],
  groups: [
    {
      id: 'ask',
      title: 'Ask',
      blocks: [
        { id: 'hello', type: 'text', content: { richText: [{ type: 'p', children: [{ text: 'Hello! What is your name?' }] }] } },
        { id: 'name', type: 'text input', outgoingEdgeId: 'e-answer', options: { variableId: 'vname' } },
      ],
    },
    {
      id: 'reply',
      title: 'Reply',
      blocks: [
        { id: 'thanks', type: 'text', content: { richText: [{ type: 'p', children: [{ text: 'Thanks {{Name}}!' }] }] } },
        { id: 'again', type: 'Jump', options: { groupId: 'ask', blockId: 'name' } },
      ],
    },
  ],
  theme: { general: { progressBar: { isEnabled: true } } },
  settings: {},
}

/**
 * The noisy tenant: every answer runs code that never ends, again and again, until the step's
 * code budget is spent, then asks again. Ten visitors answering it keep the code workers busy.
 */
export const noisyFlow = {
  version: '6.1',
  name: 'Benchmark endless code',
  events: [{ id: 'start', type: 'start', outgoingEdgeId: 'e-start' }],
  edges: [
    { id: 'e-start', from: { eventId: 'start' }, to: { groupId: 'ask' } },
    { id: 'e-answer', from: { blockId: 'answer' }, to: { groupId: 'spin' } },
  ],
  variables: [
    { id: 'vanswer', name: 'Answer' },
    { id: 'vspin', name: 'Spin' },
  ],
  groups: [
    {
      id: 'ask',
      title: 'Ask',
      blocks: [{ id: 'answer', type: 'text input', outgoingEdgeId: 'e-answer', options: { variableId: 'vanswer' } }],
    },
    {
      id: 'spin',
      title: 'Spin',
      blocks: [
        {
          id: 'loop',
          type: 'Set variable',
          options: { variableId: 'vspin', expressionToEvaluate: '(() => { while (true) {} })()', isCode: true },
        },
        { id: 'again', type: 'Jump', options: { groupId: 'ask', blockId: 'answer' } },
      ],
    },
  ],
  theme: {},
  settings: {},
}

/**
 * A file question taking up to 20 files of any type, then a text question: what an anonymous
 * client uploads to without ever answering.
 */
export const uploadFlow = {
  version: '6.1',
  name: 'Benchmark files',
  events: [{ id: 'start', type: 'start', outgoingEdgeId: 'e-start' }],
  edges: [
    { id: 'e-start', from: { eventId: 'start' }, to: { groupId: 'ask' } },
    { id: 'e-files', from: { blockId: 'files' }, to: { groupId: 'name' } },
  ],
  variables: [
    { id: 'vfiles', name: 'Files' },
    { id: 'vname', name: 'Name' },
  ],
  groups: [
    {
      id: 'ask',
      title: 'Files',
      blocks: [{ id: 'files', type: 'file input', outgoingEdgeId: 'e-files', options: { variableId: 'vfiles', isMultipleAllowed: true } }],
    },
    { id: 'name', title: 'Name', blocks: [{ id: 'name-input', type: 'text input', options: { variableId: 'vname' } }] },
  ],
  theme: {},
  settings: {},
}
