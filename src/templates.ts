import approval from '../examples/approval.json'
import chatbot from '../examples/chatbot.json'
import counter from '../examples/counter.json'
import fanoutJoin from '../examples/fanout-join.json'
import mapReduce from '../examples/map-reduce.json'
import reactAgent from '../examples/react-agent.json'
import supervisor from '../examples/supervisor.json'
import handoff from '../examples/handoff.json'

import type { Template } from './store/appTypes'

export const TEMPLATES: readonly Template[] = [
  { id: 'counter', name: counter.name, doc: counter, input: {} },
  { id: 'fanout-join', name: fanoutJoin.name, doc: fanoutJoin, input: { topic: 'owls' } },
  {
    id: 'map-reduce',
    name: mapReduce.name,
    doc: mapReduce,
    input: { subjects: ['cats', 'dogs', 'owls'] },
  },
  {
    id: 'approval',
    name: approval.name,
    doc: approval,
    input: { request: 'a haiku about checkpoints' },
  },
  {
    id: 'chatbot',
    name: chatbot.name,
    doc: chatbot,
    input: { messages: [{ role: 'user', content: 'hi' }] },
  },
  {
    id: 'react-agent',
    name: reactAgent.name,
    doc: reactAgent,
    input: { messages: [{ role: 'user', content: 'What is the weather in Paris?' }] },
  },
  {
    id: 'supervisor',
    name: supervisor.name,
    doc: supervisor,
    input: { messages: [{ role: 'user', content: 'Write a short note about owls.' }] },
  },
  {
    id: 'handoff',
    name: handoff.name,
    doc: handoff,
    input: { messages: [{ role: 'user', content: 'What is the weather in Paris?' }] },
  },
]

/** The graph the first start saves (trusted) into an empty library. */
export const FIRST_EXAMPLE = { name: counter.name, doc: counter }
