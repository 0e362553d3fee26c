import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { GraphSpecSchema } from './core/graph/schema'
import { App } from './ui/App'
import exampleGraph from '../examples/counter.json'
import './ui/app.css'

// The bundled example is ours, so a document that does not parse is a bug: fail loudly.
const graph = GraphSpecSchema.parse(exampleGraph)

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')

createRoot(root).render(
  <StrictMode>
    <App graph={graph} />
  </StrictMode>,
)
