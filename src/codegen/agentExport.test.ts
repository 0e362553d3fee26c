import { describe, expect, it } from 'vitest'
import reactAgent from '../../examples/react-agent.json'
import type { GraphSpec } from '../core/graph/schema'
import { parseGraph } from '../core/graph/validate'
import { emitProject } from './project'
import { emitPython } from './python'
import { emitTypeScript } from './typescript'

function spec(doc: unknown): GraphSpec {
  const parsed = parseGraph(doc)
  if (!parsed.ok || !parsed.spec) throw new Error(JSON.stringify(parsed.issues))
  return parsed.spec
}

const scripted = spec(reactAgent)
/** The ReAct template on an OpenAI-compatible endpoint. */
const openai: GraphSpec = {
  ...scripted,
  nodes: scripted.nodes.map((n) =>
    n.kind === 'model'
      ? {
          ...n,
          model: {
            provider: 'openai',
            baseUrl: 'http://localhost:8080/v1',
            model: 'gpt-4o-mini',
            temperature: 0.5,
          },
        }
      : n,
  ),
}

describe('the agent node kinds in the exports', () => {
  it('TypeScript: ToolNode over tool()s, toolsCondition, the scripted model from the state', () => {
    const ts = emitTypeScript(scripted)
    expect(ts).toContain("import { ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt'")
    expect(ts).toContain("import { tool } from '@langchain/core/tools'")
    expect(ts).toContain('const tools = new ToolNode(toolsTools)')
    expect(ts).toContain(".addConditionalEdges('agent', toolsCondition, ['tools', END])")
    expect(ts).toContain('playScripted(agentReplies, state.messages)')
    expect(ts).not.toContain('is not exported yet')
  })

  it('TypeScript: ChatOpenAI with the settings, bound to the tools, no key in the file', () => {
    const ts = emitTypeScript(openai)
    expect(ts).toContain("import { ChatOpenAI } from '@langchain/openai'")
    expect(ts).toContain(
      "const agentModel = new ChatOpenAI({\n  model: 'gpt-4o-mini',\n  temperature: 0.5,\n  configuration: { baseURL: 'http://localhost:8080/v1' },\n}).bindTools(toolsTools)",
    )
    expect(ts).toContain(
      'async (state) => ({ messages: [await agentModel.invoke(state.messages)] })',
    )
    expect(ts).not.toMatch(/apiKey|sk-/)
  })

  it('Python: ToolNode over @tool functions, tools_condition, ChatOpenAI with bind_tools', () => {
    const py = emitPython(openai)
    expect(py).toContain('from langgraph.prebuilt import ToolNode, tools_condition')
    expect(py).toContain('from langchain_openai import ChatOpenAI')
    expect(py).toContain(
      'agent_model = ChatOpenAI(model="gpt-4o-mini", temperature=0.5, base_url="http://localhost:8080/v1").bind_tools(tools_tools)',
    )
    expect(py).toContain('def get_weather(**state):\n    city = state.get("city")')
    expect(py).toContain('builder.add_conditional_edges("agent", tools_condition, ["tools", END])')
    expect(emitPython(scripted)).toContain('_play_scripted(agent_replies, state.get("messages"))')
  })

  it('a node timeout: milliseconds for ChatOpenAI in TypeScript, seconds in Python', () => {
    const timed: GraphSpec = {
      ...openai,
      nodes: openai.nodes.map((n) =>
        n.model?.provider === 'openai' ? { ...n, model: { ...n.model, timeoutMs: 12_500 } } : n,
      ),
    }
    expect(emitTypeScript(timed)).toContain(
      "const agentModel = new ChatOpenAI({\n  model: 'gpt-4o-mini',\n  temperature: 0.5,\n  timeout: 12500,\n  configuration: { baseURL: 'http://localhost:8080/v1' },\n})",
    )
    expect(emitPython(timed)).toContain(
      'agent_model = ChatOpenAI(model="gpt-4o-mini", temperature=0.5, timeout=12.5, base_url="http://localhost:8080/v1")',
    )
    // Without one, neither export sets it: LangChain's own default applies.
    expect(emitTypeScript(openai)).not.toContain('timeout')
    expect(emitPython(openai)).not.toContain('timeout=')
  })

  it('the project lists LangChain OpenAI when a model uses it, and only then', () => {
    const pkg = (g: GraphSpec) =>
      JSON.parse(emitProject(g).find((f) => f.path === 'package.json')?.text ?? '{}') as {
        dependencies: Record<string, string>
      }
    expect(pkg(openai).dependencies['@langchain/openai']).toBeDefined()
    expect(pkg(scripted).dependencies['@langchain/openai']).toBeUndefined()
    const reqs = emitProject(openai).find((f) => f.path === 'python/requirements.txt')?.text
    expect(reqs).toContain('langchain-openai')
  })
})
