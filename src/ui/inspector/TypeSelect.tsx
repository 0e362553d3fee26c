import './fieldType.css'
import { describeType, typeToDocument, type TypeDesc } from '../../core/graph/fieldTypes'
import type { FieldSpec, FieldTypeName } from '../../core/graph/schema'

/** What the type select offers, in the words the schema editor uses. */
const CHOICES: { value: FieldTypeName; label: string }[] = [
  { value: 'any', label: 'any' },
  { value: 'string', label: 'string' },
  { value: 'number', label: 'number' },
  { value: 'integer', label: 'integer' },
  { value: 'boolean', label: 'boolean' },
  { value: 'object', label: 'object' },
  { value: 'array', label: 'list' },
  { value: 'messages', label: 'messages' },
]

/** The resolved type a choice stands for; a list keeps the item type it had. */
function typeFor(choice: FieldTypeName, items: TypeDesc = { kind: 'any' }): TypeDesc {
  return choice === 'array' ? { kind: 'array', items } : { kind: choice }
}

/** The `updateField` patch that gives a field a type (`undefined` for any: no key). */
export function typePatch(t: TypeDesc): Pick<FieldSpec, 'type'> {
  return { type: typeToDocument(t) }
}

/**
 * A field's declared type as selects: the type, and for a list the item type ("list of
 * string"). A list of lists shows its outer item choice only; the JSON file says the rest.
 */
export function TypeSelect(props: {
  field: FieldSpec
  onType(patch: Pick<FieldSpec, 'type'>): void
}) {
  const { field, onType } = props
  const name = field.name
  const t = describeType(field.type)
  const items = t.kind === 'array' ? t.items : null
  return (
    <span className="field-type">
      <label className="field-type-label">
        <span className="muted">type</span>
        <select
          aria-label={`Type of ${name}`}
          value={t.kind}
          onChange={(e) =>
            onType(typePatch(typeFor(e.target.value as FieldTypeName, items ?? undefined)))
          }
        >
          {CHOICES.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      </label>
      {items && (
        <label className="field-type-label">
          <span className="muted">of</span>
          <select
            aria-label={`Item type of ${name}`}
            value={items.kind}
            onChange={(e) =>
              onType(
                typePatch({
                  kind: 'array',
                  items: typeFor(
                    e.target.value as FieldTypeName,
                    items.kind === 'array' ? items.items : undefined,
                  ),
                }),
              )
            }
          >
            {CHOICES.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
      )}
    </span>
  )
}
