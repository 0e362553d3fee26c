/**
 * The floor of the first load (bench/firstLoad.bench.ts): React, React Flow and zustand with
 * the parts Superstep's canvas renders at once (pane, background, controls with a button of
 * its own, minimap, a panel, a viewport portal, custom nodes with handles and custom edges,
 * the store hooks), around a toy graph. Not part of the app: built by the bench beside the
 * app's production build, with the same target and tree-shaking, so the gap between the two
 * is what Superstep's own shell adds to the page's initial JavaScript.
 */
import '@xyflow/react/dist/style.css'
import { createRoot } from 'react-dom/client'
import { flushSync } from 'react-dom'
import {
  Background,
  BaseEdge,
  ControlButton,
  Controls,
  Handle,
  MiniMap,
  Panel,
  Position,
  ReactFlow,
  ReactFlowProvider,
  ViewportPortal,
  useReactFlow,
  useStore,
  useStoreApi,
  type EdgeProps,
  type NodeProps,
} from '@xyflow/react'
import { create } from 'zustand'

const useCount = create<{ n: number; inc(): void }>((set) => ({
  n: 0,
  inc: () => set((s) => ({ n: s.n + 1 })),
}))

function ToyNode({ data }: NodeProps) {
  return (
    <div>
      <Handle type="target" position={Position.Left} />
      {String(data.label)}
      <Handle type="source" position={Position.Right} />
    </div>
  )
}

function ToyEdge({ sourceX, sourceY, targetX, targetY }: EdgeProps) {
  return <BaseEdge path={`M${sourceX},${sourceY}L${targetX},${targetY}`} />
}

function Zoom() {
  const zoom = useStore((s) => s.transform[2])
  const api = useStoreApi()
  const flow = useReactFlow()
  return (
    <ViewportPortal>
      <button
        onClick={() => {
          flushSync(() => api.getState().resetSelectedElements())
          void flow.fitView()
        }}
      >
        {zoom}
      </button>
    </ViewportPortal>
  )
}

function App() {
  const { n, inc } = useCount()
  return (
    <ReactFlowProvider>
      <div style={{ width: '100vw', height: '100vh' }}>
        <ReactFlow
          nodeTypes={{ toy: ToyNode }}
          edgeTypes={{ toy: ToyEdge }}
          defaultNodes={[
            { id: 'a', type: 'toy', position: { x: 0, y: 0 }, data: { label: 'a' } },
            { id: 'b', type: 'toy', position: { x: 200, y: 0 }, data: { label: 'b' } },
          ]}
          defaultEdges={[{ id: 'a-b', source: 'a', target: 'b', type: 'toy' }]}
          fitView
        >
          <Background />
          <Controls>
            <ControlButton onClick={inc}>{n}</ControlButton>
          </Controls>
          <MiniMap />
          <Panel position="top-left">floor</Panel>
          <Zoom />
        </ReactFlow>
      </div>
    </ReactFlowProvider>
  )
}

createRoot(document.getElementById('root')!).render(<App />)
