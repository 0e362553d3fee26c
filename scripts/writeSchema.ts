/** Writes docs/graph.schema.json from the zod schema in src/core/graph/schema.ts. */
import { writeFileSync } from 'node:fs'
import { graphJsonSchemaText } from '../src/core/graph/schema'

writeFileSync(new URL('../docs/graph.schema.json', import.meta.url), graphJsonSchemaText())
console.log('wrote docs/graph.schema.json')
