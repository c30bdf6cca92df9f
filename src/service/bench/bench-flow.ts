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
