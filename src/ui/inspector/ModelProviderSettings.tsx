import { useContext, useEffect, useReducer, useState } from 'react'
import type { ModelSettings, NodeSpec } from '../../core/graph/schema'
import { loadModelKeys } from '../../store/modelKeys'
import { SettingsDialog } from '../panels/SettingsDialog'
import { StoreContext } from '../storeContext'
import { CommitInput } from './controls'

type OpenAiSettings = Extract<ModelSettings, { provider: 'openai' }>
type Provider = ModelSettings['provider']

const PROVIDER_LABEL: Record<Provider, string> = {
  scripted: 'Scripted replies',
  openai: 'OpenAI-compatible endpoint',
}

/** What a model node starts with: a scripted reply, so it runs offline. */
export function starterScripted(): ModelSettings {
  return { provider: 'scripted', replies: [{ content: 'Hello! (a scripted reply)' }] }
}
const OPENAI_BASE_URL = 'https://api.openai.com/v1'

/**
 * The other provider's settings of each model node, for this session: switching to an
 * endpoint and back restores the replies (and the endpoint). Never an API key: those are not
 * in the document. Keyed by graph name and node id; it is only a starting point.
 */
const previous = new Map<string, ModelSettings>()
const memoKey = (graph: string, node: string, provider: Provider) =>
  JSON.stringify([graph, node, provider])

/** Strips a trailing slash, as the Settings dialog saves base URLs. */
const normalize = (url: string) => url.trim().replace(/\/+$/, '')

export function baseUrlProblem(text: string): string | null {
  if (text.trim() === '') return 'A base URL is required, e.g. https://api.openai.com/v1.'
  try {
    const { protocol } = new URL(text.trim())
    if (protocol === 'http:' || protocol === 'https:') return null
  } catch {
    // not a URL at all
  }
  return 'The base URL must be an http:// or https:// URL.'
}

export function temperatureProblem(text: string): string | null {
  if (text.trim() === '') return null
  const t = Number(text)
  return Number.isFinite(t) && t >= 0 && t <= 2
    ? null
    : 'The temperature is a number from 0 to 2 (empty: the endpoint’s default).'
}

export function timeoutProblem(text: string): string | null {
  if (text.trim() === '') return null
  const s = Number(text)
  return Number.isFinite(s) && Math.round(s * 1000) > 0
    ? null
    : 'The timeout is a positive number of seconds (empty: 60 s).'
}

/**
 * The chat model of a model node: scripted replies or an OpenAI-compatible endpoint (base
 * URL, model, temperature, timeout) and whether Settings holds an API key for that base URL.
 * Each change is one `onChange` (one undoable edit); invalid text stays here, explained.
 */
export function ModelProviderSettings(props: {
  graphName: string
  node: NodeSpec
  onChange(model: ModelSettings): void
}) {
  const { graphName, node, onChange } = props
  const model = node.model
  const provider = model?.provider ?? 'scripted'
  const switchTo = (next: Provider) => {
    if (next === provider) return
    if (model) previous.set(memoKey(graphName, node.id, provider), model)
    const kept = previous.get(memoKey(graphName, node.id, next))
    onChange(kept ?? (next === 'scripted' ? starterScripted() : starterEndpoint()))
  }
  return (
    <div className="model-provider">
      <label className="stack">
        <span>Model provider</span>
        <select
          aria-label={`Model provider of ${node.id}`}
          value={provider}
          onChange={(e) => switchTo(e.target.value as Provider)}
        >
          {(['scripted', 'openai'] as const).map((p) => (
            <option key={p} value={p}>
              {PROVIDER_LABEL[p]}
            </option>
          ))}
        </select>
      </label>
      {model?.provider === 'openai' && (
        <EndpointFields id={node.id} settings={model} onChange={onChange} />
      )}
    </div>
  )
}

function starterEndpoint(): OpenAiSettings {
  const saved = Object.keys(loadModelKeys())[0]
  return { provider: 'openai', baseUrl: saved ?? OPENAI_BASE_URL, model: 'gpt-4o-mini' }
}

function EndpointFields(props: {
  id: string
  settings: OpenAiSettings
  onChange(model: ModelSettings): void
}) {
  const { id, settings, onChange } = props
  const set = (patch: Partial<OpenAiSettings>) => {
    const next: Record<string, unknown> = { ...settings, ...patch }
    for (const [k, v] of Object.entries(patch)) if (v === undefined) delete next[k]
    onChange(next as OpenAiSettings)
  }
  const seconds = settings.timeoutMs === undefined ? '' : String(settings.timeoutMs / 1000)
  const field = (
    name: string,
    value: string,
    validate: (text: string) => string | null,
    commit: (text: string) => void,
    placeholder?: string,
  ) => (
    <label className="stack">
      <span>{name}</span>
      <CommitInput
        key={value}
        label={`${name} of ${id}`}
        value={value}
        validate={validate}
        onCommit={commit}
        {...(placeholder !== undefined && { placeholder })}
      />
    </label>
  )
  return (
    <div className="model-endpoint">
      {field('Base URL', settings.baseUrl, baseUrlProblem, (t) => set({ baseUrl: t.trim() }))}
      {field(
        'Model',
        settings.model,
        (t) => (t.trim() === '' ? 'A model name is required, e.g. gpt-4o-mini.' : null),
        (t) => set({ model: t.trim() }),
      )}
      {field(
        'Temperature',
        settings.temperature === undefined ? '' : String(settings.temperature),
        temperatureProblem,
        (t) => set({ temperature: t.trim() === '' ? undefined : Number(t) }),
        'default',
      )}
      {field(
        'Timeout (s)',
        seconds,
        timeoutProblem,
        (t) => set({ timeoutMs: t.trim() === '' ? undefined : Math.round(Number(t) * 1000) }),
        '60',
      )}
      <KeyNote id={id} baseUrl={settings.baseUrl} />
    </div>
  )
}

/** Whether Settings holds a key for the base URL (never the key), and a way to Settings. */
function KeyNote({ id, baseUrl }: { id: string; baseUrl: string }) {
  const inApp = useContext(StoreContext) !== null
  const [open, setOpen] = useState(false)
  // Keys are saved by the Settings dialog (here or in the top bar): re-read when one closes.
  const [, reread] = useReducer((n: number) => n + 1, 0)
  useEffect(() => {
    document.addEventListener('close', reread, true)
    return () => document.removeEventListener('close', reread, true)
  }, [])
  const url = normalize(baseUrl)
  const hasKey = Object.keys(loadModelKeys()).some((u) => normalize(u) === url)
  return (
    <div className="model-key" role="status">
      <span>
        API key:{' '}
        {hasKey ? 'set for this base URL' : 'none for this base URL (needed by most endpoints)'}
      </span>{' '}
      {inApp ? (
        <button
          type="button"
          className="link-button"
          title={`Keys by base URL, kept in this browser (for ${id})`}
          onClick={() => setOpen(true)}
        >
          Open Settings
        </button>
      ) : (
        <span>in Settings</span>
      )}
      {open && (
        <SettingsDialog
          onClose={() => {
            setOpen(false)
            reread()
          }}
        />
      )}
    </div>
  )
}
