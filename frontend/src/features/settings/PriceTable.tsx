import { newPriceRow, type PriceRow } from './settingsForm';
import type { FieldGroupProps } from './useSettingsForm';

/** One model's row: its name, prices, context length, and Remove. */
function PriceRowView({
  row,
  index,
  onChange,
  onRemove,
}: {
  row: PriceRow;
  index: number;
  onChange: (patch: Partial<PriceRow>) => void;
  onRemove: () => void;
}) {
  const name = row.model.trim() || `row ${index + 1}`;
  const number = (field: 'input' | 'output' | 'context', label: string) => (
    <td>
      <input
        className="errand-input settings-number"
        type="number"
        inputMode={field === 'context' ? 'numeric' : 'decimal'}
        step={field === 'context' ? '1' : 'any'}
        min={field === 'context' ? '1' : '0'}
        placeholder={field === 'context' ? '—' : undefined}
        aria-label={label}
        value={row[field]}
        onChange={(e) => onChange({ [field]: e.target.value })}
      />
    </td>
  );
  return (
    <tr>
      <td>
        <input
          className="errand-input"
          type="text"
          aria-label={`Model name, row ${index + 1}`}
          value={row.model}
          placeholder="model name"
          spellCheck={false}
          onChange={(e) => onChange({ model: e.target.value })}
        />
      </td>
      {number('input', `Input price of ${name}, $ per 1M tokens`)}
      {number('output', `Output price of ${name}, $ per 1M tokens`)}
      {number('context', `Context length of ${name}, tokens`)}
      <td>
        <button type="button" className="icon-btn" aria-label={`Remove ${name}`} title="Remove" onClick={onRemove}>
          ×
        </button>
      </td>
    </tr>
  );
}

/** The model table: per model name, its prices and context length, a row each. */
export function PriceTable({ form, edit, bad, errorId }: FieldGroupProps) {
  const setRow = (key: number, patch: Partial<PriceRow>) =>
    edit((f) => ({ ...f, prices: f.prices.map((r) => (r.key === key ? { ...r, ...patch } : r)) }));
  return (
    <fieldset className="settings-group" aria-describedby={bad('prices') ? errorId : undefined}>
      <legend>Prices and context lengths</legend>
      <p className="settings-help">
        Per model name: US dollars per million tokens, to count what tasks spend (a model without a price counts as
        free) and how many tokens the model reads at once (blank if you do not know).
      </p>
      <table className="price-table">
        <thead>
          <tr>
            <th scope="col">Model</th>
            <th scope="col">Input $ / 1M</th>
            <th scope="col">Output $ / 1M</th>
            <th scope="col">Context (tokens)</th>
            <th scope="col">
              <span className="sr-only">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {form.prices.map((row, i) => (
            <PriceRowView
              key={row.key}
              row={row}
              index={i}
              onChange={(patch) => setRow(row.key, patch)}
              onRemove={() => edit((f) => ({ ...f, prices: f.prices.filter((r) => r.key !== row.key) }))}
            />
          ))}
        </tbody>
      </table>
      <button
        type="button"
        className="btn btn-ghost btn-small"
        onClick={() => edit((f) => ({ ...f, prices: [...f.prices, newPriceRow('', '0', '0', '')] }))}
      >
        + Add model
      </button>
    </fieldset>
  );
}
